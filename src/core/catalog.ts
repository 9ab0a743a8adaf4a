/** The default safety scale, lowest first. */
export const DEFAULT_SAFETY_LEVELS: readonly string[] = [
  "none",
  "low",
  "medium",
  "high",
  "critical",
];

export type Visibility = "agent" | "internal";

/** One tool's metadata, as the registry declares it. */
export interface CatalogEntry {
  readonly name: string;
  readonly summary: string;
  readonly visibility: Visibility;
  /** null: the cost is unknown. */
  readonly costUsd: number | null;
  readonly safetyLevel: string | null;
  readonly requiresCapability: string | null;
  readonly category: string | null;
  readonly triggerKeywords: readonly string[];
}

/** What the model is shown of one tool. */
export interface ManifestEntry {
  readonly name: string;
  readonly summary: string;
}

/** One reading of the tool registry: the only place tool metadata is derived. */
export class ToolCatalog {
  private readonly byName = new Map<string, CatalogEntry>();
  private readonly ranks = new Map<string, number>();

  constructor(
    readonly entries: readonly CatalogEntry[],
    readonly safetyLevels: readonly string[] = DEFAULT_SAFETY_LEVELS,
  ) {
    safetyLevels.forEach((level, rank) => this.ranks.set(level, rank));
    for (const entry of entries) {
      if (this.byName.has(entry.name)) throw new Error(`duplicate catalogue entry '${entry.name}'`);
      if (entry.safetyLevel !== null && !this.ranks.has(entry.safetyLevel)) {
        throw new Error(
          `safety level '${entry.safetyLevel}' of '${entry.name}' is not on the scale`,
        );
      }
      this.byName.set(entry.name, entry);
    }
  }

  static readonly empty = new ToolCatalog([]);

  get(name: string): CatalogEntry | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get names(): string[] {
    return this.entries.map((entry) => entry.name);
  }

  /** The rank of a level on this catalogue's scale, or undefined when it is not on it. */
  rank(level: string): number | undefined {
    return this.ranks.get(level);
  }

  /** For each named tool the catalogue holds as agent-visible: `{name, summary}`, in set order. */
  manifest(names: readonly string[]): ManifestEntry[] {
    const out: ManifestEntry[] = [];
    for (const name of names) {
      const entry = this.byName.get(name);
      if (entry && entry.visibility === "agent") out.push({ name, summary: entry.summary });
    }
    return out;
  }
}

/** An entry with every optional field at its default. */
export function catalogEntry(init: Partial<CatalogEntry> & { name: string }): CatalogEntry {
  return {
    summary: "",
    visibility: "agent",
    costUsd: null,
    safetyLevel: null,
    requiresCapability: null,
    category: null,
    triggerKeywords: [],
    ...init,
  };
}
