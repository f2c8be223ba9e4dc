import { useBackpressure } from './context';

export function Legend({ palette }: { palette: string[] }) {
  const tenants = useBackpressure((s) => s.config.tenants);
  return (
    <ul className="bp-legend" aria-label="Legend">
      {tenants.map((tenant, i) => (
        <li key={tenant.id}>
          <span className="bp-swatch" style={{ background: palette[i % 4] }} aria-hidden="true" />
          Tenant {tenant.id}
        </li>
      ))}
      <li>
        <span className="bp-swatch" style={{ background: palette[4] }} aria-hidden="true" />
        Model calls
      </li>
      <li>
        <span className="bp-swatch bp-swatch-cap" aria-hidden="true" />
        Limit (dashed)
      </li>
    </ul>
  );
}
