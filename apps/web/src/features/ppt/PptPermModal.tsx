import { useQueryClient } from '@tanstack/react-query';
import type { Ppt } from '@shutu/contracts';
import { PublicOrGroupsModal } from '../board/dialogs.tsx';
import { fetchPptAuth, pptKeys, savePptAuth } from './api.ts';
import { pt } from './messages.ts';

/** 权限 (administrators): public, or restricted to the ticked permission groups; as a board's. */
export function PptPermModal({ ppt, onClose }: { ppt: Ppt | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const id = ppt?.id ?? 0;
  return (
    <PublicOrGroupsModal
      open={ppt !== null}
      title={ppt ? pt.permTitle(ppt.ppName) : ''}
      testId="ppt-perm"
      authKey={pptKeys.auth(id)}
      load={() => fetchPptAuth(id)}
      save={(body) => savePptAuth(id, body)}
      onSaved={() => queryClient.invalidateQueries({ queryKey: pptKeys.all })}
      onClose={onClose}
    />
  );
}
