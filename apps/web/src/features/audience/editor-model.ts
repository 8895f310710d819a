import { AUDIENCE_CONNECT, AUDIENCE_MAX_OUTPUTS, audienceMessages, type AudienceConnect, type AudienceRule, type FilterGroup } from '@shutu/contracts';

/** The dataset-driven editor's state (spec 3 §2 "Audience editor (dataset-driven)", §4 "Audience editor"). */

export type FilterTreeValue = { relation: 'AND' | 'OR'; conditions: NonNullable<FilterGroup['conditions']>; filters: NonNullable<FilterGroup['filters']> };

export interface CardState {
  key: string;
  cubeId: number | null;
  cubeName: string;
  /** Another audience's members (an import group) in place of a dataset. */
  audienceId: number | null;
  connectType: AudienceConnect;
  phoneField: number | null;
  columns: number[];
  filter: FilterTreeValue;
  having: FilterTreeValue;
  expanded: boolean;
}

export const emptyTree = (): FilterTreeValue => ({ relation: 'AND', conditions: [], filters: [] });

let seq = 0;
export const newCard = (from: Partial<CardState>): CardState => ({
  key: `card-${++seq}`,
  cubeId: null,
  cubeName: '',
  audienceId: null,
  connectType: 'and',
  phoneField: null,
  columns: [],
  filter: emptyTree(),
  having: emptyTree(),
  expanded: true,
  ...from,
});

/** 交 → 并 → 差 → 交 (spec 3 §4). */
export const nextConnect = (c: AudienceConnect): AudienceConnect => AUDIENCE_CONNECT[(AUDIENCE_CONNECT.indexOf(c) + 1) % AUDIENCE_CONNECT.length]!;

/** Adding a dataset (or audience) card: refused when already used (该数据集已选用过). */
export function addCard(cards: readonly CardState[], card: CardState): CardState[] | string {
  if (cards.some((c) => (card.cubeId && c.cubeId === card.cubeId) || (card.audienceId && c.audienceId === card.audienceId)))
    return audienceMessages.cubeUsedTwice;
  return [...cards, card];
}

/** Output fields: at most 5 (spec 3 §5; the original did not enforce it, we do). */
export const canAddOutput = (columns: readonly number[]) => columns.length < AUDIENCE_MAX_OUTPUTS;

const tree = (t: FilterTreeValue) => (t.conditions.length === 0 && t.filters.length === 0 ? null : t);

export const toRules = (cards: readonly CardState[]): AudienceRule[] =>
  cards.map((c) =>
    c.audienceId
      ? { audienceId: c.audienceId, cubeName: c.cubeName, connectType: c.connectType }
      : {
          cubeId: c.cubeId,
          cubeName: c.cubeName,
          connectType: c.connectType,
          phoneField: c.phoneField,
          columns: c.columns,
          filter: tree(c.filter),
          having: tree(c.having),
        },
  );

/** The first message of spec 3 §5 that the cards break, for save or preview; null when none. */
export function checkCards(cards: readonly CardState[], mode: 'save' | 'preview'): string | null {
  if (!cards.some((c) => c.cubeId)) return audienceMessages.rulesRequired;
  for (const c of cards) {
    if (c.cubeId && !c.phoneField)
      return mode === 'preview' ? audienceMessages.previewKeyRequired : audienceMessages.keyFieldRequired.replace('{cube}', c.cubeName);
  }
  return null;
}

export const fromRules = (rules: readonly AudienceRule[]): CardState[] =>
  rules.map((r) =>
    newCard({
      cubeId: r.cubeId ?? null,
      cubeName: r.cubeName ?? '',
      audienceId: r.audienceId ?? null,
      connectType: r.connectType ?? 'and',
      phoneField: typeof r.phoneField === 'number' ? r.phoneField : null,
      columns: (r.columns ?? []).filter((x): x is number => typeof x === 'number'),
      filter: (r.filter as FilterTreeValue | null) ?? emptyTree(),
      having: (r.having as FilterTreeValue | null) ?? emptyTree(),
      expanded: false,
    }),
  );
