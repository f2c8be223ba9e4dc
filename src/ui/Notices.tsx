import { useLab } from '../store/react';

export function Notices() {
  const notices = useLab((s) => s.notices);
  const dismissNotice = useLab((s) => s.dismissNotice);
  // Always present, so the notices that arrive are announced.
  return (
    <div className="notices" aria-live="polite">
      {notices.map((notice) => (
        <div key={notice.id} className={`notice notice-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'note'}>
          <div className="notice-body">
            <strong>{notice.title}</strong>
            {notice.details.length > 0 ? (
              <ul>
                {notice.details.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ) : null}
          </div>
          <button type="button" className="quiet" onClick={() => dismissNotice(notice.id)} aria-label={`Dismiss: ${notice.title}`}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
