/**
 * Where a reviewer opens a review's workflow in the Temporal UI (startup `temporal.ui_url`):
 * the review id is the workflow id. No UI configured, no link.
 */
export type ReviewLink = (reviewId: string) => string | undefined;

export function temporalUiLink(uiUrl: string, namespace: string): ReviewLink {
  if (uiUrl === '') return () => undefined;
  const base = uiUrl.replace(/(?<!\/)\/+$/, '');
  return (reviewId) => `${base}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(reviewId)}`;
}
