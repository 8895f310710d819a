/** Placeholder until the share-link page lands (/share/:code, no login needed where the link allows it). */
export default function ShareOpenPage() {
  return null;
}
