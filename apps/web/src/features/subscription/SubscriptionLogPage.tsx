/** Placeholder until the subscription log page lands. */
export function SubscriptionLogPage() {
  return null;
}
