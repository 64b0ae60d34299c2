// PLACEHOLDER (issue 20 foundation): replaced by the helper who owns this page.
export function OpenServiceAdminPage() {
  return null;
}
