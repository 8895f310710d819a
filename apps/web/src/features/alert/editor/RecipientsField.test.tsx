import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, ok } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { emptyDraft, bodyOf, type AlertDraft } from './draft.ts';
import { RecipientsField } from './RecipientsField.tsx';

function Harness({ onDraft }: { onDraft: (d: AlertDraft) => void }) {
  const [draft, setDraft] = useState<AlertDraft>(emptyDraft());
  return (
    <RecipientsField
      draft={draft}
      onChange={(d) => {
        setDraft(d);
        onDraft(d);
      }}
    />
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('预警人员 by department', () => {
  it("keeps the chosen department and adds today's members of it and its sub-departments to the list", async () => {
    mockFetch((c) =>
      c.url === '/api/alert/recipients'
        ? ok({
            users: [
              { id: 1, name: 'south', realName: '南区经理', deptId: 10 },
              { id: 2, name: 'gz', realName: '广州专员', deptId: 11 },
              { id: 3, name: 'north', realName: '北区经理', deptId: 20 },
            ],
            departments: [
              { id: 10, parentId: 0, deptName: '华南销售部', sort: 0, children: [{ id: 11, parentId: 10, deptName: '广州组', sort: 0, children: [] }] },
              { id: 20, parentId: 0, deptName: '华北销售部', sort: 1, children: [] },
            ],
          })
        : undefined,
    );
    const onDraft = vi.fn();
    renderWithApp(<Harness onDraft={onDraft} />);
    fireEvent.mouseDown(screen.getByTestId('alert-depts').querySelector('input')!);
    fireEvent.click(await screen.findByTitle('华南销售部'));
    await waitFor(() => expect(onDraft).toHaveBeenCalled());
    const draft = onDraft.mock.calls.at(-1)![0] as AlertDraft;
    expect([draft.warnDeptIds, draft.warnUserIds]).toEqual([[10], [1, 2]]);
    expect(bodyOf(draft)).toMatchObject({ warnDeptIds: '10', warnUserIds: '1,2' });
  });
});
