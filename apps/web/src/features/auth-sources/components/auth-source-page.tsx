// PLACEHOLDER (issue 19 foundation): replaced by the helper who owns this page.
export function AuthSourcePage() {
  return null;
}
