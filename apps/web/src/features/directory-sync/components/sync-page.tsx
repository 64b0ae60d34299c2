// PLACEHOLDER (issue 19 foundation): replaced by the helper who owns this page.
export function SyncPage() {
  return null;
}
