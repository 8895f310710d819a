/**
 * A fast getComputedStyle for jsdom.
 *
 * Role queries with a `name` compute accessible names, which ask getComputedStyle whether
 * every descendant is hidden, and CodeMirror measures its scroll parents on every frame; jsdom
 * answers each call by matching every rule of every stylesheet (antd injects thousands) against
 * the element. That was most of a web test's time. Here a property is cascaded from only the
 * rules that declare it, the way jsdom does it (the later matching rule wins, the inline style
 * last; display as specified, visibility inherited). Colours and pointer-events, which jsdom
 * resolves further, and everything that is not a single property still come from jsdom's own
 * getComputedStyle, computed only when read.
 */
/** jsdom's default stylesheet rules that hide (the ones that can decide a test). */
const DEFAULT_HIDDEN =
  '[hidden], area, base, basefont, datalist, head, link, meta, noembed, noframes, param, rp, script, style, template, title, dialog:not([open])';

interface Declared {
  selector: string;
  style: CSSStyleDeclaration;
}
/** Per sheet: its style rules (screen media included, as jsdom does) and, per property, those that set it. */
interface SheetIndex {
  length: number;
  rules: Declared[];
  byProperty: Map<string, Declared[]>;
}
const indexes = new WeakMap<CSSStyleSheet, SheetIndex>();

function sheetIndex(sheet: CSSStyleSheet): SheetIndex | undefined {
  let list: CSSRuleList;
  try {
    list = sheet.cssRules;
  } catch {
    return undefined;
  }
  const cached = indexes.get(sheet);
  if (cached && cached.length === list.length) return cached;
  const rules: Declared[] = [];
  const visit = (inner: CSSRuleList) => {
    for (const rule of Array.from(inner)) {
      if (rule instanceof CSSMediaRule) {
        if (Array.from(rule.media).includes('screen')) visit(rule.cssRules);
      } else if (rule instanceof CSSStyleRule) {
        // jsdom's workaround for cssstyle#193: the selector after the last `;`.
        rules.push({ selector: rule.selectorText.split(';').pop()!.trim(), style: rule.style });
      }
    }
  };
  visit(list);
  const index = { length: list.length, rules, byProperty: new Map<string, Declared[]>() };
  indexes.set(sheet, index);
  return index;
}

function rulesSetting(index: SheetIndex, property: string): Declared[] {
  let found = index.byProperty.get(property);
  if (!found) {
    found = index.rules.filter((r) => r.style.getPropertyValue(property) !== '');
    index.byProperty.set(property, found);
  }
  return found;
}

function matches(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return false;
  }
}

/** The cascaded value: the last matching rule that sets it, then the inline style. */
function cascaded(el: Element, property: string): string {
  let value = property === 'display' && matches(el, DEFAULT_HIDDEN) ? 'none' : '';
  for (const sheet of Array.from(el.ownerDocument.styleSheets)) {
    const index = sheetIndex(sheet);
    if (!index) continue;
    for (const rule of rulesSetting(index, property)) if (matches(el, rule.selector)) value = rule.style.getPropertyValue(property);
  }
  const inline = (el as HTMLElement).style?.getPropertyValue(property);
  return inline || value;
}

function computed(el: Element, property: string): string {
  const value = cascaded(el, property);
  if (property === 'display') return value === '' || value === 'initial' || value === 'unset' ? 'inline' : value;
  if (property !== 'visibility') return value;
  // visibility is inherited.
  if (value === '' || value === 'inherit' || value === 'unset') return el.parentElement ? computed(el.parentElement, property) : 'visible';
  return value === 'initial' ? 'visible' : value;
}

/** Properties jsdom resolves beyond the cascade (colours, pointer-events): left to jsdom. */
const resolvedByJsdom = (property: string) => property.includes('color') || property === 'pointer-events';
const kebab = (name: string) => (name === 'cssFloat' ? 'float' : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));

/** Installs the fast path over `window.getComputedStyle` (pseudo elements are ignored, as jsdom rejects them). */
const INSTALLED = Symbol.for('shutu.fastStyles');

export function installFastStyles(window: Window): void {
  // Setup runs before every file; files sharing a worker may share the window too.
  const marked = window as Window & { [INSTALLED]?: true };
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;
  const original = window.getComputedStyle.bind(window);
  const probe = window.document.createElement('div').style as unknown as Record<string, unknown>;
  /** A single CSS property of a declaration, by its camelCase or kebab-case name. */
  const cssProperty = (name: string): string | undefined => {
    if (name === 'cssText' || !(name in probe) || typeof probe[name] !== 'string') return undefined;
    const property = name.includes('-') ? name : kebab(name);
    return resolvedByJsdom(property) ? undefined : property;
  };
  window.getComputedStyle = (el: Element) => {
    let full: CSSStyleDeclaration | undefined;
    const real = () => (full ??= original(el));
    return new Proxy({} as CSSStyleDeclaration, {
      get(_, name) {
        const property = typeof name === 'string' ? cssProperty(name) : undefined;
        if (property) return computed(el, property);
        if (name === 'getPropertyValue') {
          return (asked: string) => {
            const own = cssProperty(asked);
            return own ? computed(el, own) : real().getPropertyValue(asked);
          };
        }
        const value = Reflect.get(real(), name) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real()) : value;
      },
      has: (_, name) => Reflect.has(real(), name),
    });
  };
}
