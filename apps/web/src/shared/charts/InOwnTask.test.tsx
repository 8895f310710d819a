import { useLayoutEffect } from 'react';
import { afterEach, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { InOwnTask, PendingControl } from './InOwnTask.tsx';

afterEach(cleanup);

/** A part that notes, as React commits it, which of the parts are on the page. */
function Part({ name, seen }: { name: string; seen: Map<string, string[]> }) {
  useLayoutEffect(() => {
    seen.set(
      name,
      [...document.querySelectorAll('[data-part]')].map((el) => el.getAttribute('data-part')!),
    );
  }, [name, seen]);
  return <div data-part={name}>{name}</div>;
}

it('holds the place with the fallback, then mounts each part in a commit of its own', async () => {
  const seen = new Map<string, string[]>();
  render(
    <>
      <InOwnTask fallback={<PendingControl text="浙江、江苏" placeholder={false} />}>
        <Part name="select" seen={seen} />
      </InOwnTask>
      <InOwnTask>
        <Part name="table" seen={seen} />
      </InOwnTask>
    </>,
  );
  // The board's own commit shows the filter's values where its control will be, and neither part.
  expect(screen.getByText('浙江、江苏').getAttribute('aria-busy')).toBe('true');
  expect(document.querySelectorAll('[data-part]')).toHaveLength(0);
  await screen.findByText('table');
  expect(screen.queryByText('浙江、江苏')).toBeNull();
  // The first part was committed while the second still waited for its turn: two commits, not one.
  expect(seen.get('select')).toEqual(['select']);
  expect(seen.get('table')).toEqual(['select', 'table']);
});
