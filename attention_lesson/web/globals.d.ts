/* The globals the pages' classic scripts define and the others read, for the type check only
 * (tsconfig.json, docs/web.md): never loaded by a page, never copied beside one, not in the wheel.
 * core.js and shared.js say `@satisfies` these shapes where they define them, so a member renamed or
 * dropped there fails the check. Load order: outputs/explorer.py's SCRIPTS. */

/** A matrix: rows of numbers (the rows the querying tokens, the columns the keys in [n, n] ones). */
type Matrix = number[][];
/** A point or arrow of a plane, [x, y]. */
type Point = number[];
/** A lesson as data.js and the studio's server give it (attention_core's fields: big, read loosely). */
type Lesson = any;
/** One pass of attention: q, k, v, scores, weights, output and the rest (core.js dotProductAttention). */
type Attention = any;
/** (lesson, tokens, mode) -> a pass: core.js's attendTokens, or the studio's server's numbers. */
type Attend = (lesson: Lesson, tokens: string[], mode?: string) => Attention;
/** A plane: its two axes and the share of the terms it holds. */
interface Plane { axes: number[]; share: number }
/** geometry.Picture's fields (core.js picture). */
interface Picture {
  tokens: string[]; focus: number; qk: Plane; v: Plane; query: Point; keys: Point[]; reach: number[];
  shown: number[]; scores: number[]; weights: number[]; values: Point[]; tails: Point[]; output: Point;
  output_full: number[]; feet: Point[]; tips: Point[]; weighted: Point[]; query_length: number;
}

/** core.js: attention_core's functions, mirrored (core-next.js adds attention_core/next/'s). */
interface AttentionCoreBase {
  MODES: string[];
  sum(xs: number[]): number;
  softmax(row: number[]): number[];
  matmul(a: Matrix, b: Matrix): Matrix;
  transpose(m: Matrix): Matrix;
  project(x: Matrix, w: Matrix): Matrix;
  scaleFor(mode: string, dK: number): number;
  causalMask(n: number): boolean[][];
  dotProductAttention(q: Matrix, k: Matrix, v: Matrix, scale: number, mask?: boolean[][] | null): Attention;
  projections(lesson: Lesson, head?: string | null): any;
  attendTokens(lesson: Lesson, tokens: string[], mode?: string, masked?: boolean | null, head?: string | null): Attention;
  attendHeads(lesson: Lesson, tokens: string[], mode?: string, masked?: boolean | null): Attention;
  argmax(row: number[]): number;
  hardLookup(att: Attention): any;
  norm(x: Point): number;
  unit(x: Point): Point;
  bestAxes(terms: number[]): Plane;
  givenPlane(terms: number[], axes: number[]): Plane;
  terms(lesson: Lesson, mode?: string, focus?: string, attend?: Attend): [number[], number[]];
  planes(lesson: Lesson, focus?: string, attend?: Attend): [Plane, Plane];
  picture(lesson: Lesson, context: string, mode?: string, plane?: [Plane, Plane] | null, at?: number | null,
    attend?: Attend): Picture;
  pictureJson(p: Picture): Record<string, unknown>;
}
/** core-next.js: attention_core/next/'s functions, added to core.js's. */
interface AttentionCoreNext {
  /** numbers --json's training, positions and tiles (attention_core/next/), in their JSON's shape */
  train(lesson: Lesson, tokens: string[], mode?: string, masked?: boolean | null): any;
  /** claims.descent: "falls", "uneven", "rises" or "flat", from each step's loss */
  descent(losses: number[]): string;
  sinusoidal(n: number, d: number, base: number, start?: number): Matrix;
  ropeAngles(n: number, dK: number, base: number, start?: number): Matrix;
  rotate(m: Matrix, angles: Matrix): Matrix;
  attendPositioned(lesson: Lesson, tokens: string[], mode?: string, start?: number, masked?: boolean | null): Attention;
  positionsStudy(lesson: Lesson, tokens: string[], mode?: string, masked?: boolean | null): any;
  onlineSoftmax(scaled: Matrix, v: Matrix, block: number): any;
  tiles(lesson: Lesson, tokens: string[], mode?: string, masked?: boolean | null): any;
}
type AttentionCoreApi = AttentionCoreBase & AttentionCoreNext;
declare var AttentionCore: AttentionCoreApi;

/** shared.js: what the explorer's and the studio's scripts share. */
interface ALShared {
  /** The first element the selector finds (under el, else the document). */
  $(sel: string, el?: ParentNode): HTMLElement;
  esc(s: unknown): string;
  MODES: string[];
  LANG_NAMES: Record<string, string>;
  langName(lang: string): string;
  /** word(key, fields) for the catalogs tables() in the language lang(). */
  catalog(tables: () => Record<string, Record<string, string>>, lang: () => string):
    (key: string, fields?: Record<string, unknown>) => string;
  missing: string[];
  rgb(hex: string): number[];
  luminance(c: number[]): number;
  contrast(a: number[], b: number[]): number;
  inkOn(fill: number[], inks: string[]): string;
}

/** window.AL: shared.js's helpers and the explorer's parts, each added by its script (explorer.js's
 *  header lists them); the parts are `any`: each is its own file's object, read by the next ones. */
interface ALNamespace extends ALShared {
  state?: any;
  url?: any;
  plane?: any;
  views?: any;
  heads?: any;
  next?: any;
  real?: any;
  inputs?: any;
  exporter?: any;
}

/** explorer.js's one global: the explorer's view, also hosted by the studio. */
interface ExplorerApi {
  start(page: any, core: any, options?: { editable?: boolean; controls?: boolean }): void;
  replace(page: any, core: any): void;
  view(change: { lang?: string; context?: string; mode?: string; [key: string]: unknown }): void;
  layout(): void;
  timings: number[];
  lessonToml(): string;
  settled(): Promise<unknown>;
  state: any;
}
declare var Explorer: ExplorerApi;

/* globals as `var`: properties of globalThis too, which core.js, shared.js and explorer.js define them on */
declare var AL: ALNamespace;

interface Window {
  /** data.js: what the explorer page starts from (outputs/explorer.py page_data). */
  EXPLORER_DATA?: any;
  /** the studio's CodeMirror view, for tests and scripts/benchmark.py */
  studio?: { editor: any };
  /** ms from a keystroke to the studio's numbers on screen (scripts/benchmark.py) */
  studioTimings?: number[];
}

/** A matrix cell's slider (explorer-inputs.js): target, the number field it moves. */
type Slider = HTMLInputElement & { target?: HTMLInputElement };
