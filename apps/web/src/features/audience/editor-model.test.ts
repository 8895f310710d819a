import { describe, expect, it } from 'vitest';
import { addCard, canAddOutput, checkCards, newCard, nextConnect, toRules } from './editor-model.ts';

describe('dataset-driven audience editor model', () => {
  it('cycles the connect type 交 → 并 → 差 → 交', () => {
    expect([nextConnect('and'), nextConnect('or'), nextConnect('del')]).toEqual(['or', 'del', 'and']);
  });

  it('refuses the same dataset twice and allows at most 5 outputs', () => {
    const first = addCard([], newCard({ cubeId: 7, cubeName: '订单分析' }));
    expect(Array.isArray(first)).toBe(true);
    expect(addCard(first as never, newCard({ cubeId: 7, cubeName: '订单分析' }))).toBe('该数据集已选用过');
    expect(canAddOutput([1, 2, 3, 4])).toBe(true);
    expect(canAddOutput([1, 2, 3, 4, 5])).toBe(false);
  });

  it('names the dataset without a key field on save, and the preview message on preview', () => {
    const cards = [newCard({ cubeId: 7, cubeName: '订单分析', phoneField: 3 }), newCard({ cubeId: 8, cubeName: '用户人群' })];
    expect(checkCards(cards, 'save')).toBe('请选择数据集【用户人群】的主键字段');
    expect(checkCards(cards, 'preview')).toBe('请选择数据集主键字段');
    expect(checkCards([], 'save')).toBe('请至少拖入一个数据集');
  });

  it('sends empty filter trees as null and import groups by audienceId', () => {
    const rules = toRules([
      newCard({ cubeId: 7, cubeName: '订单分析', phoneField: 3, columns: [4] }),
      newCard({ audienceId: 2, cubeName: '名单', connectType: 'del' }),
    ]);
    expect(rules).toEqual([
      { cubeId: 7, cubeName: '订单分析', connectType: 'and', phoneField: 3, columns: [4], filter: null, having: null },
      { audienceId: 2, cubeName: '名单', connectType: 'del' },
    ]);
  });
});
