/**
 * What the person projects the session through: the rule settings (starting from a preset), their own presets,
 * the target model — and the projection of the current leaf under them, asked of the worker.
 */
import { changedRules, PI_DEFAULTS, type RuleSettings } from "../../core/project/rules.ts";
import {
  BUILT_IN_PRESETS,
  parsePresets,
  presetsToJson,
  presetToJson,
  type Preset,
} from "../../core/project/presets.ts";
import { err, ok, type Result } from "../../core/result.ts";
import type { SessionClient } from "../../worker/client.ts";
import type { ProjectionAnswer, RuleEffect } from "../../worker/projection.ts";
import type { PageTokenCount, SessionTokenAccuracy } from "../../worker/tokens-engine.ts";
import { PayloadViewMemory } from "../payload/payload-view.svelte.ts";
import { modelsJson } from "../rules/custom-models.svelte.ts";
import { loadModelsJson, loadRulesStore, saveModelsJson, saveRulesStore } from "./persistence.ts";

export type Notify = (level: "warning" | "error", message: string) => void;

export class ProjectionState {
  settings: RuleSettings = $state.raw(PI_DEFAULTS);
  /** The preset the settings started from (they may have been changed since). */
  basedOn: string = $state(BUILT_IN_PRESETS[0]!.name);
  userPresets: readonly Preset[] = $state.raw([]);
  /** "PROVIDER/ID" chosen by the person; undefined = the model the path ends with. */
  model: string | undefined = $state(undefined);
  answer: ProjectionAnswer | undefined = $state.raw(undefined);
  effects: readonly RuleEffect[] | undefined = $state.raw(undefined);
  /** Token counts of the current projection (counted after it is shown). */
  tokens: PageTokenCount | undefined = $state.raw(undefined);
  /**
   * The answer `tokens` were counted for. A new projection keeps showing the last totals until its own count
   * arrives; per-item numbers are only shown against the items they were counted on (`tokensFor === answer`).
   */
  tokensFor: ProjectionAnswer | undefined = $state.raw(undefined);
  tokensError: string | undefined = $state(undefined);
  /**
   * How well the estimators did on the shown session's recorded requests, measured once per session. Never another
   * session's: it goes when `tokens` of another session come, and a measurement that lands after the person moved
   * on is dropped.
   */
  accuracy: SessionTokenAccuracy | undefined = $state.raw(undefined);
  /** Entries behind the payload item the person points at, highlighted in the tree. */
  pointed: readonly number[] | undefined = $state.raw(undefined);
  pending = $state(false);
  /**
   * Where the payload view of the shown session keeps what the person did in it (folds, focus, scroll), so that it
   * survives the view being unmounted (another tab) or drawn again, and coming back to the session.
   */
  payloadMemory: PayloadViewMemory | undefined = $state.raw(undefined);

  readonly #client: SessionClient;
  readonly #notify: Notify;
  #target: { key: string; leaf: number } | undefined;
  /** What the shown answer is the projection of. */
  #answered: { key: string; leaf: number; settings: RuleSettings; model: string | undefined } | undefined;
  /** The session whose accuracy is being measured or shown. */
  #accuracyKey: string | undefined;
  /** The payload view's folds, focus and scroll per session, most recently shown last. Read only by `refresh`. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #payloadMemories = new Map<string, PayloadViewMemory>();

  constructor(client: SessionClient, notify: Notify) {
    this.#client = client;
    this.#notify = notify;
  }

  get presets(): readonly Preset[] {
    return [...BUILT_IN_PRESETS, ...this.userPresets];
  }

  /** Sessions whose payload view state is kept (the oldest is forgotten past this). */
  static readonly PAYLOAD_MEMORIES = 32;

  /** Session `key`'s payload view memory, made the most recently used. */
  #payloadMemoryOf(key: string): PayloadViewMemory {
    const memory = this.#payloadMemories.get(key) ?? new PayloadViewMemory();
    this.#payloadMemories.delete(key);
    this.#payloadMemories.set(key, memory);
    if (this.#payloadMemories.size > ProjectionState.PAYLOAD_MEMORIES) {
      const oldest = this.#payloadMemories.keys().next();
      if (!oldest.done) this.#payloadMemories.delete(oldest.value);
    }
    return memory;
  }

  /** The settings equal pi's own: the app says the payload is exactly what pi would send. */
  get isPi(): boolean {
    return changedRules(this.settings).length === 0;
  }

  get preset(): Preset | undefined {
    return this.presets.find((p) => p.name === this.basedOn);
  }

  /** The settings differ from the preset they started from. */
  get modified(): boolean {
    const preset = this.preset;
    return !preset || presetToJson(preset) !== presetToJson({ name: preset.name, settings: this.settings });
  }

  async restore(): Promise<void> {
    await this.#restoreModelsJson();
    const stored = await loadRulesStore();
    if (!stored.ok) return this.#notify("warning", stored.error);
    if (!stored.value) return;
    const presets = parsePresets(stored.value.presets, "the saved presets");
    if (presets.ok) this.userPresets = presets.value.filter((p) => !BUILT_IN_PRESETS.some((b) => b.name === p.name));
    else this.#notify("warning", presets.error);
    if (stored.value.current) {
      const current = parsePresets(stored.value.current, "the saved rules");
      if (current.ok && current.value[0]) {
        this.settings = current.value[0].settings;
        this.basedOn = current.value[0].name;
      }
    }
    this.model = stored.value.model;
  }

  /** The models.json of an earlier visit, told to the worker before any session is projected. */
  async #restoreModelsJson(): Promise<void> {
    const stored = await loadModelsJson();
    if (!stored.ok) return this.#notify("warning", stored.error);
    if (!stored.value) return;
    const { name, text } = stored.value;
    const used = await this.#useModelsJson(text, name).catch((error: unknown) =>
      err(error instanceof Error ? error.message : String(error)),
    );
    if (!used.ok) this.#notify("warning", `Your saved ${name} is not in use: ${used.error}.`);
  }

  async #useModelsJson(text: string | undefined, name: string | undefined): Promise<Result<void>> {
    const answer = await this.#client.models(text);
    if (!answer.ok) return answer;
    modelsJson.name = text === undefined ? undefined : name;
    modelsJson.custom = answer.value.custom;
    modelsJson.overridden = answer.value.overridden;
    return ok(undefined);
  }

  /**
   * Reads models from a models.json (pi's ~/.pi/agent/models.json) from now on, as pi does: sessions on its custom
   * models get their payload, and its overrides apply. Kept for later visits. A file pi would refuse changes
   * nothing and says why.
   */
  async importModelsJson(text: string, name: string): Promise<Result<void>> {
    const used = await this.#useModelsJson(text, name);
    if (!used.ok) return err(`${name} was not read: ${used.error}`);
    const saved = await saveModelsJson({ version: 1, name, text });
    if (!saved.ok) this.#notify("warning", saved.error);
    await this.refresh();
    return ok(undefined);
  }

  /** pi-ai's own models only again; the saved models.json is forgotten. */
  async forgetModelsJson(): Promise<void> {
    const used = await this.#useModelsJson(undefined, undefined);
    if (!used.ok) this.#notify("error", used.error);
    const saved = await saveModelsJson(undefined);
    if (!saved.ok) this.#notify("warning", saved.error);
    await this.refresh();
  }

  async #save(): Promise<void> {
    const saved = await saveRulesStore({
      version: 1,
      presets: presetsToJson(this.userPresets),
      current: presetToJson({ name: this.basedOn, settings: this.settings }),
      ...(this.model !== undefined ? { model: this.model } : {}),
    });
    if (!saved.ok) this.#notify("warning", saved.error);
  }

  /**
   * The shown payload as pretty JSON, whole or one item of its main list, written by the worker: the view holds
   * stand-ins for images (see worker/page-payload.ts), the copy and the download hold the images themselves.
   */
  payloadJson(item?: number): Promise<string> {
    const shown = this.#answered;
    if (!shown || !this.answer?.ok) return Promise.reject(new Error("There is no payload to copy."));
    return this.#client.payloadJson(shown.key, shown.leaf, shown.settings, shown.model, item);
  }

  /** The shown payload as a JSON file, made by the worker (as `payloadJson()`, without the page making the Blob). */
  payloadFile(): Promise<Blob> {
    const shown = this.#answered;
    if (!shown || !this.answer?.ok) return Promise.reject(new Error("There is no payload to save."));
    return this.#client.payloadFile(shown.key, shown.leaf, shown.settings, shown.model);
  }

  /** Items `[start, end)` of the shown payload's main list as the view holds them (a long list comes in part). */
  payloadItems(start: number, end: number): Promise<readonly unknown[]> {
    const shown = this.#answered;
    if (!shown || !this.answer?.ok) return Promise.reject(new Error("there is no payload shown"));
    return this.#client.payloadItems(shown.key, shown.leaf, shown.settings, shown.model, start, end);
  }

  /** Projects the current leaf again (after a leaf, rule or model change). */
  async refresh(key?: string, leaf?: number): Promise<void> {
    if (key !== undefined && leaf !== undefined) this.#target = { key, leaf };
    else if (key !== undefined) this.#target = undefined;
    const target = this.#target;
    if (!target) {
      this.answer = undefined;
      this.effects = undefined;
      this.tokens = undefined;
      return;
    }
    const settings = this.settings;
    const model = this.model;
    this.pending = true;
    try {
      const answer = await this.#client.project(target.key, target.leaf, settings, model);
      if (answer === undefined) return; // a newer request is on its way
      this.answer = answer;
      this.#answered = { ...target, settings, model };
      this.payloadMemory = this.#payloadMemoryOf(target.key);
      this.pending = false;
      if (!answer.ok) {
        this.tokens = undefined;
        this.effects = undefined;
        return;
      }
      await this.#count(target, settings, model);
      // A leaf or session chosen meanwhile measures and asks for its own; this one would overwrite them.
      if (this.#target !== target) return;
      if (this.#accuracyKey !== target.key) void this.#measure(target.key);
      const effects = await this.#client.ruleEffects(target.key, target.leaf, settings, model);
      if (effects !== undefined) this.effects = effects;
    } catch (error) {
      this.pending = false;
      this.#notify("error", error instanceof Error ? error.message : String(error));
    }
  }

  async #count(target: { key: string; leaf: number }, settings: RuleSettings, model: string | undefined) {
    const answer = this.answer;
    try {
      const tokens = await this.#client.tokens(target.key, target.leaf, settings, model);
      if (tokens === undefined) return;
      if (this.#accuracyKey !== target.key) this.accuracy = undefined;
      this.tokens = tokens;
      this.tokensFor = answer;
      this.tokensError = undefined;
    } catch (error) {
      this.tokens = undefined;
      this.tokensError = error instanceof Error ? error.message : String(error);
    }
  }

  /** Measures the estimators on the session's recorded turns, then counts again so totals carry that error. */
  async #measure(key: string): Promise<void> {
    this.#accuracyKey = key;
    this.accuracy = undefined;
    try {
      const accuracy = await this.#client.accuracy(key);
      if (this.#accuracyKey !== key || this.#target?.key !== key) return;
      this.accuracy = accuracy;
      const target = this.#target;
      if (target?.key === key) await this.#count(target, this.settings, this.model);
    } catch (error) {
      // A session removed meanwhile has nothing to say; anything else, the person should know.
      if (this.#target?.key !== key) return;
      const reason = error instanceof Error ? error.message : String(error);
      this.#notify(
        "warning",
        `Token counts for this session could not be calibrated (${reason}); they stay estimates.`,
      );
    }
  }

  clear(): void {
    this.#target = undefined;
    this.answer = undefined;
    this.effects = undefined;
    this.tokens = undefined;
    this.pointed = undefined;
  }

  async setSettings(change: Partial<RuleSettings>): Promise<void> {
    this.settings = { ...this.settings, ...change };
    await Promise.all([this.refresh(), this.#save()]);
  }

  async setModel(model: string | undefined): Promise<void> {
    this.model = model;
    await Promise.all([this.refresh(), this.#save()]);
  }

  async applyPreset(name: string): Promise<void> {
    const preset = this.presets.find((p) => p.name === name);
    if (!preset) return;
    this.basedOn = preset.name;
    this.settings = preset.settings;
    await Promise.all([this.refresh(), this.#save()]);
  }

  #nameProblem(name: string, except?: string): string | undefined {
    const trimmed = name.trim();
    if (!trimmed) return "A preset needs a name.";
    if (BUILT_IN_PRESETS.some((p) => p.name === trimmed))
      return `"${trimmed}" is a built-in preset; choose another name.`;
    if (trimmed !== except && this.userPresets.some((p) => p.name === trimmed))
      return `There is already a preset named "${trimmed}".`;
    return undefined;
  }

  /** Saves the current settings as a preset of the person's own (replacing one of the same name when asked). */
  async saveAs(name: string, replace = false): Promise<Result<void>> {
    const trimmed = name.trim();
    const problem = this.#nameProblem(trimmed, replace ? trimmed : undefined);
    if (problem) return err(problem);
    const preset = { name: trimmed, settings: this.settings };
    this.userPresets = [...this.userPresets.filter((p) => p.name !== trimmed), preset];
    this.basedOn = trimmed;
    await this.#save();
    return ok(undefined);
  }

  async rename(from: string, to: string): Promise<Result<void>> {
    const trimmed = to.trim();
    if (!this.userPresets.some((p) => p.name === from)) return err(`"${from}" is not one of your presets.`);
    const problem = this.#nameProblem(trimmed, from);
    if (problem) return err(problem);
    this.userPresets = this.userPresets.map((p) => (p.name === from ? { ...p, name: trimmed } : p));
    if (this.basedOn === from) this.basedOn = trimmed;
    await this.#save();
    return ok(undefined);
  }

  async remove(name: string): Promise<void> {
    this.userPresets = this.userPresets.filter((p) => p.name !== name);
    if (this.basedOn === name) this.basedOn = BUILT_IN_PRESETS[0]!.name;
    await this.#save();
  }

  /** Adds the presets of a file; names already taken get " (2)", " (3)", … so nothing is overwritten. */
  async import(text: string, fileName: string): Promise<Result<readonly string[]>> {
    const parsed = parsePresets(text, fileName);
    if (!parsed.ok) return parsed;
    // A local scratch set, not reactive state.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const taken = new Set(this.presets.map((p) => p.name));
    const added: Preset[] = [];
    for (const preset of parsed.value) {
      let name = preset.name;
      for (let n = 2; taken.has(name); n += 1) name = `${preset.name} (${n})`;
      taken.add(name);
      added.push({ name, settings: preset.settings });
    }
    this.userPresets = [...this.userPresets, ...added];
    await this.#save();
    return ok(added.map((p) => p.name));
  }

  /** The current settings as a preset file. */
  exportCurrent(): string {
    return presetToJson({ name: this.basedOn, settings: this.settings });
  }

  exportAll(): string {
    return presetsToJson(this.userPresets);
  }
}
