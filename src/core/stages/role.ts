import { accountedSelect } from "../account.js";
import { filterByNames, type Tool } from "../tools.js";
import { StageOutcome, type SelectionContext } from "../contract.js";
import { BaseStage, type StageOptions } from "./base.js";

/** Maps a role to its palette: null means no policy for that role. May throw. */
export type RoleResolver = (role: string, context: SelectionContext) => readonly string[] | null;

export interface RolePaletteOptions extends StageOptions {
  resolver?: RoleResolver | null;
  /** The stage's own role; when empty, the context's role is used. */
  role?: string;
}

/** Narrows to the palette a role resolver returns. */
export class RolePaletteStage extends BaseStage {
  private readonly resolver: RoleResolver | null;
  private readonly role: string;

  constructor(options: RolePaletteOptions = {}) {
    super(options, "role");
    this.resolver = options.resolver ?? null;
    this.role = options.role ?? "";
  }

  apply(tools: readonly Tool[], context: SelectionContext): StageOutcome {
    const role = this.role || context.role;
    if (this.resolver === null) return StageOutcome.abstain("no role resolver");
    const palette = this.resolver(role, context);
    if (palette === null) return StageOutcome.abstain(`no palette for role '${role}'`);
    if (palette.length === 0) {
      // An empty palette must never silently bind nothing: abstain to every tool and say so.
      return StageOutcome.abstain(
        `role '${role}' resolved an empty palette; abstaining to all tools`,
        true,
      );
    }
    const dropped: string[] = [];
    return accountedSelect(
      filterByNames(tools, new Set(palette), dropped),
      `palette of role '${role}'`,
      { dropped },
      `not in the '${role}' palette`,
    );
  }
}
