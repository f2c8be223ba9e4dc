// The page analyze-parser.spec.ts drives: nothing of the analyzer loads until the button is pressed.
import claimSkipLocked from '../../../src/strategies/skip-locked/claim-skip-locked.sql?raw';

const out = document.getElementById('out')!;
document.getElementById('analyze')!.addEventListener('click', async () => {
  try {
    const { analyzeStatement } = await import('../../../src/sql/analyze/index');
    const good = await analyzeStatement(claimSkipLocked, 'claim');
    const broken = await analyzeStatement('UPDATE runs\nSET status = 1\nWERE run_id = $1', 'complete');
    const refused = await analyzeStatement('BEGIN ISOLATION LEVEL SERIALIZABLE', 'claim');
    out.textContent = JSON.stringify({ good, broken, refused });
  } catch (error) {
    out.textContent = JSON.stringify({ failed: String(error) });
  }
});
