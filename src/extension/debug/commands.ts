import * as vscode from "vscode";
import { captureFixture } from "../../core/debug/capture.js";
import { captureExpression } from "../../core/debug/probe.js";
import { probeOutput } from "../../core/debug/reply.js";
import { runFixture } from "../../core/run-fixture.js";
import { FIXTURE_SUFFIX } from "../../core/fixture/files.js";
import { loadFixture } from "../../core/fixture/load.js";
import type { FixtureJson } from "../../core/fixture/schema.js";
import { traceToFixture } from "../../core/traces/to-fixture.js";
import type { DebugAction } from "../../protocol.js";
import { fixtureLabel, pickFixture } from "../fixture-pick.js";
import { loadFixtureFromUri, readWorkspaceCatalog } from "../fixtures.js";
import { registerCommand } from "../commands.js";
import { notice, notify, pickLabel } from "../notify.js";
import type { TracePanels } from "../panel/panels.js";
import { saveNewFixture } from "../save-fixture.js";
import { DebugFailure, evaluateInFrame, pausedPythonFrame, type PausedFrame } from "./frame.js";
import { DebugInspection, readExpression, watchProgramMoves } from "./inspection.js";
import { problemFailure } from "./problems.js";
import { counted } from "../../core/words.js";

/** What the Variables and Watch views hand a context-menu command: the expression to evaluate. */
export function expressionOf(arg: unknown): string | undefined {
  if (typeof arg !== "object" || arg === null) return undefined;
  const record = arg as Record<string, unknown>;
  const variable = record.variable;
  if (typeof variable === "object" && variable !== null) {
    const name = (variable as Record<string, unknown>).evaluateName;
    return typeof name === "string" && name.trim() !== "" ? name : undefined;
  }
  // A Watch expression is itself the thing to evaluate.
  for (const key of ["evaluateName", "expression", "name"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return undefined;
}

/** A file name made from debuggee text: letters, digits, `-`, `_` and `.` only. */
function fileStem(text: string): string {
  return (
    text
      .replace(/[^\w.-]+/g, "-")
      .replace(/^[-.]+|-+$/g, "")
      .slice(0, 60) || "debug"
  );
}

function defaultFixtureUri(stem: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file("/");
  return vscode.Uri.joinPath(folder, `${fileStem(stem)}${FIXTURE_SUFFIX}`);
}

/** Shows what went wrong; anything else is a bug and goes to the log with a short notice. */
async function report(error: unknown): Promise<void> {
  if (error instanceof DebugFailure) {
    await notify(error.level, error.notice, { details: error.details });
    return;
  }
  await notify("error", notice`Reading from the debug session failed unexpectedly.`, {
    details: [error instanceof Error ? (error.stack ?? error.message) : String(error)],
  });
}

/** Inspect in Palette Inspector, Inspect Selection in Debug Session…, Capture Turn Fixture. */
export class DebugCommands {
  private lastExpression: string | undefined;
  private readonly moves = watchProgramMoves();

  constructor(private readonly panels: TracePanels) {}

  register(): vscode.Disposable[] {
    return [
      ...this.moves.disposables,
      registerCommand("paletteInspector.inspectVariable", (arg?: unknown) =>
        this.inspectVariable(arg),
      ),
      registerCommand("paletteInspector.inspectExpression", () => this.inspectExpression()),
      registerCommand("paletteInspector.captureTurnFixture", () => this.captureTurn(null)),
    ];
  }

  /** From the Variables or Watch view (or the palette, where there is no argument). */
  async inspectVariable(arg: unknown): Promise<void> {
    if (arg === undefined) return this.inspectExpression();
    const expression = expressionOf(arg);
    if (expression === undefined) {
      await notify(
        "error",
        notice`This variable has no expression the debugger can evaluate; use 'Inspect Selection in Debug Session…' with an expression instead.`,
      );
      return;
    }
    await this.inspect(expression);
  }

  async inspectExpression(): Promise<void> {
    // No session, or one not paused, is said before an expression is asked for.
    try {
      await pausedPythonFrame();
    } catch (error) {
      return report(error);
    }
    const expression = await vscode.window.showInputBox({
      title: "Inspect Selection in Debug Session",
      prompt:
        "A Python expression in the paused frame: a SelectionResult, StageRecords, an exception carrying them, or a trace dict or JSON string",
      value: this.lastExpression ?? "result",
      validateInput: (value) =>
        value.trim() === "" || /[\r\n]/.test(value) ? "One line of Python" : undefined,
    });
    if (expression === undefined) return;
    await this.inspect(expression.trim());
  }

  async inspect(expression: string): Promise<void> {
    try {
      const read = await readExpression(expression);
      this.lastExpression = expression;
      this.panels.showDebug({
        kind: "debug",
        inspection: new DebugInspection(read, expression, this.moves.event),
        act: this.act,
      });
    } catch (error) {
      await report(error);
    }
  }

  /** The debug panel's buttons. */
  readonly act = async (action: DebugAction, inspection: DebugInspection): Promise<void> => {
    try {
      switch (action) {
        case "refresh":
          return await inspection.refresh();
        case "turnIntoFixture":
          return await this.turnIntoFixture(inspection);
        case "captureTurn":
          return await this.captureTurn(inspection);
        case "compare":
          return await this.compare(inspection);
      }
    } catch (error) {
      await report(error);
    }
  };

  /** The existing replay: scripted stages that reproduce the value's trace. */
  private async turnIntoFixture(inspection: DebugInspection): Promise<void> {
    const { read } = inspection;
    const { fixture, caveats } = traceToFixture(read.trace, {
      file: read.frame.label,
      line: 0,
    });
    const described: FixtureJson = {
      ...fixture,
      description: `replay of ${inspection.expression} read in ${read.frame.label}, debug session ${read.frame.session.name}`,
    };
    const target = await saveNewFixture(
      described,
      {
        defaultUri: defaultFixtureUri(inspection.expression),
        title: "Turn the value into a fixture",
      },
      this.panels,
    );
    if (target && caveats.length > 0)
      await notify("warning", notice`The replay differs from the value; the log says where.`, {
        details: caveats,
      });
  }

  /** Capture Turn Fixture: the pipeline's own configuration, replayed and checked. */
  async captureTurn(inspection: DebugInspection | null): Promise<void> {
    try {
      const frame = await pausedPythonFrame();
      const selection = inspection?.expression ?? null;
      let out = await this.readCapture(frame, null, selection);
      if (out === undefined) return;
      if (!out.ok && "pipelines" in out) {
        const pipeline = await this.pickPipeline(out.pipelines);
        if (pipeline === undefined) return;
        out = await this.readCapture(frame, pipeline, selection);
        if (out === undefined) return;
      }
      if (!out.ok) {
        if ("pipelines" in out)
          throw new DebugFailure(
            notice`That expression is not a ToolSelectionPipeline in the paused frame.`,
          );
        throw new DebugFailure(
          notice`Cannot capture this turn: the log says which part of the pipeline could not be read.`,
          [out.problem],
        );
      }
      const { fixture, notes, differences } = out.capture;
      const stem = frame.label.replace(/\s*\(.*$/, "");
      const target = await saveNewFixture(
        fixture,
        {
          defaultUri: defaultFixtureUri(`${stem}.captured`),
          title: "Capture the turn as a fixture",
        },
        this.panels,
      );
      if (!target) return;
      const scripted = fixture.pipeline?.filter((stage) => stage.kind === "scripted").length ?? 0;
      const total = fixture.pipeline?.length ?? 0;
      if (differences.length > 0)
        await notify(
          "warning",
          notice`Captured the turn, but its replay differs from the program's trace: ${differences[0]}`,
          { details: [...differences, ...notes] },
        );
      else
        await notify(
          "info",
          notice`Captured the turn: ${total - scripted} of ${counted(total, "stage")} configured as in the program, ${scripted} played back as recorded; the replay reproduces the trace.`,
          { details: notes },
        );
    } catch (error) {
      await report(error);
    }
  }

  private async readCapture(frame: PausedFrame, pipeline: string | null, selection: string | null) {
    const reply = await evaluateInFrame(
      frame,
      captureExpression(pipeline, selection),
      pipeline ?? "the pipeline",
    );
    const out = probeOutput(reply);
    if (!out.ok) throw problemFailure(pipeline ?? selection ?? "the paused frame", out.problem);
    return captureFixture(
      out.value,
      `captured from the debug session ${frame.session.name} at ${frame.label}`,
    );
  }

  private async pickPipeline(names: readonly string[]): Promise<string | undefined> {
    if (names.length === 0)
      return vscode.window.showInputBox({
        title: "Capture Turn Fixture",
        prompt:
          "No ToolSelectionPipeline among the paused frame's locals: which expression holds it?",
        value: "pipeline",
        validateInput: (value) =>
          value.trim() === "" || /[\r\n]/.test(value) ? "One line of Python" : undefined,
      });
    // The names come from the debuggee: shown neutralised, evaluated as they are.
    const picked = await vscode.window.showQuickPick(
      names.map((name) => ({ label: pickLabel(name), name })),
      { title: "Capture Turn Fixture", placeHolder: "Which pipeline ran this turn?" },
    );
    return picked?.name;
  }

  /** Another inspected value, a fixture's run, or this value's own replay, stage by stage. */
  private async compare(inspection: DebugInspection): Promise<void> {
    type Choice = vscode.QuickPickItem & { readonly run: () => Promise<void> };
    const others: Choice[] = this.panels.open.flatMap((session) =>
      session.source.kind === "debug" && session.source.inspection !== inspection
        ? [
            {
              label: pickLabel(session.source.inspection.expression),
              description: pickLabel(session.source.inspection.read.frame.label),
              detail: "another inspected value",
              run: async () =>
                this.panels.showComparison(
                  inspection.report,
                  (session.source as { inspection: DebugInspection }).inspection.report,
                ),
            },
          ]
        : [],
    );
    const choices: Choice[] = [
      ...others,
      {
        label: "A fixture's run…",
        detail: "run a *.turn.json of this workspace and compare",
        run: () => this.compareWithFixture(inspection),
      },
      {
        label: "Its replay",
        detail: "the fixture Turn into Fixture would write, run here",
        run: () => this.compareWithReplay(inspection),
      },
    ];
    const picked = await vscode.window.showQuickPick(choices, {
      title: notice`Compare ${inspection.expression} with…`.text,
    });
    await picked?.run();
  }

  private async compareWithFixture(inspection: DebugInspection): Promise<void> {
    const picked = await pickFixture("Compare with a fixture's run");
    if (!picked) return;
    const loaded = await loadFixtureFromUri(picked);
    if (!loaded.ok)
      throw new DebugFailure(
        notice`The fixture ${fixtureLabel(picked)} has problems; fix them first.`,
        [...loaded.problems.map((problem) => problem.message)],
      );
    this.panels.showComparison(inspection.report, runFixture(loaded.fixture));
  }

  private async compareWithReplay(inspection: DebugInspection): Promise<void> {
    const { fixture } = traceToFixture(inspection.read.trace, { file: "debug", line: 0 });
    const loaded = await loadFixture(
      { file: defaultFixtureUri(inspection.expression).toString(), text: JSON.stringify(fixture) },
      readWorkspaceCatalog,
    );
    if (!loaded.ok)
      throw new DebugFailure(
        notice`The replay of ${inspection.expression} is not a valid fixture.`,
        [...loaded.problems.map((problem) => problem.message)],
      );
    this.panels.showComparison(inspection.report, runFixture(loaded.fixture), true);
  }
}
