import type { NavigateFunction } from 'react-router';
import { WORK_START_PATH } from '@shutu/contracts';

/**
 * After a form succeeds (spec 3 §2): a form opened as its own tab (from a link, a mail) closes; the
 * browser refuses to close a tab it did not open by script, so we also go to /work/start, which is
 * what the user sees when the tab stays.
 */
export function leaveFinished(navigate: NavigateFunction): void {
  if (window.opener && window.history.length <= 1) window.close();
  void navigate(WORK_START_PATH);
}
