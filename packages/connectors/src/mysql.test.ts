import { expect, it, vi } from 'vitest';
import { driverSuite } from './testing/driver-suite.ts';
import { prepareEngine } from './testing/engines.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

const handle = await prepareEngine('mysql');
driverSuite(handle, 'MariaDB', ({ driver, all }) => {
  it('probes the server: INTERSECT parses, a statement-time variable exists; LIKE goes through LOWER', async () => {
    const { capabilities, serverVersion } = await driver().info();
    expect(serverVersion).toMatch(/MariaDB/);
    expect(capabilities).toMatchObject({ setOperations: true, serverStatementTimeout: true, likeIgnoresCase: false, serverSideParameters: true });
    expect((await driver().dialect()).capabilities.setOperations).toBe(true);
  });

  it('binds parameters on the server: question marks in quotes are text', async () => {
    expect(await all("SELECT '?' AS `q?`, ? AS v, ? AS n", ["it's \\ 中文", 7])).toEqual([{ 'q?': '?', v: "it's \\ 中文", n: 7 }]);
  });

  it('loads tables with a binary collation: case variants stay apart, as on the other engines', async () => {
    await driver().bulkLoad('case_t', [{ name: 's', type: 'STRING' }], [['a'], ['A'], ['a']]);
    expect(await all('SELECT s, COUNT(*) AS n FROM case_t GROUP BY s ORDER BY s')).toEqual([
      { s: 'A', n: 1 },
      { s: 'a', n: 2 },
    ]);
  });
});
