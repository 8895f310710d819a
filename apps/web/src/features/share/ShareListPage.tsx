/** Placeholder until the share-link list lands. */
export function ShareListPage() {
  return null;
}
