/**
 * One schema change. Migrations are TypeScript modules so they compile into `dist/` with the
 * code that depends on them; there is no separate SQL directory to ship or forget.
 */
export interface Migration {
  /** `NNNN_name`; the order of `migrations` in `index.ts` is the order they run. */
  readonly id: string;
  /** SQL run in one transaction together with the row that records it. */
  readonly up: string;
}
