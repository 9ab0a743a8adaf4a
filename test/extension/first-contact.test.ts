// What a new user meets first: the view's own place in the activity bar, its welcome, the
// walkthrough, each naming commands the extension has and files the package holds.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  files: string[];
  contributes: {
    commands: { command: string }[];
    viewsContainers: Record<string, { id: string; title: string; icon: string }[]>;
    views: Record<string, { id: string; name: string }[]>;
    viewsWelcome: { view: string; contents: string }[];
    walkthroughs: {
      id: string;
      steps: { id: string; title: string; description: string; media: { markdown: string } }[];
    }[];
  };
};
const contributes = manifest.contributes;
const commands = new Set(contributes.commands.map((c) => c.command));
const linked = (text: string) => [...text.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]!);
const packaged = (path: string) =>
  manifest.files.some((entry) => path === entry || path.startsWith(`${entry}/`));

describe("first contact", () => {
  it("gives Selection Traces a view container of its own in the activity bar, with a packaged icon", () => {
    const [container] = contributes.viewsContainers.activitybar!;
    expect(contributes.views[container!.id]!.map((view) => view.id)).toEqual([
      "paletteInspector.traces",
    ]);
    expect(existsSync(container!.icon)).toBe(true);
    expect(packaged(container!.icon)).toBe(true);
    expect(contributes.views.explorer).toBeUndefined();
  });

  it("titles the container as its one view, so the side bar's title is that name alone, not 'Container: View' cut short", () => {
    const [container] = contributes.viewsContainers.activitybar!;
    expect(container!.title).toBe(contributes.views[container!.id]![0]!.name);
  });

  it("welcomes with Find Selection Traces, Run a Fixture, Start Live Traces and Follow Log", () => {
    const [welcome] = contributes.viewsWelcome;
    expect(welcome!.view).toBe("paletteInspector.traces");
    const ours = linked(welcome!.contents).filter((id) => id.startsWith("paletteInspector."));
    expect(ours).toEqual([
      "paletteInspector.inspectLog",
      "paletteInspector.startLiveTraces",
      "paletteInspector.followLog",
      "paletteInspector.runFixture",
    ]);
    expect(welcome!.contents).toContain(
      "command:workbench.action.openWalkthrough?%22palette-inspector.palette-inspector%23paletteInspector.gettingStarted%22",
    );
  });

  it("walks through a fixture, the waterfall, what-if, logs, live traces and assistants, each step's page packaged", () => {
    const [walkthrough] = contributes.walkthroughs;
    expect(walkthrough!.id).toBe("paletteInspector.gettingStarted");
    expect(walkthrough!.steps.map((step) => step.title)).toEqual([
      "Run a fixture",
      "Read the waterfall",
      "Ask what if",
      "Find traces in your logs",
      "Watch a live agent",
      "Ask an assistant",
    ]);
    for (const step of walkthrough!.steps) {
      expect(existsSync(step.media.markdown), step.media.markdown).toBe(true);
      expect(packaged(step.media.markdown)).toBe(true);
      for (const id of linked(step.description)) expect(commands.has(id), id).toBe(true);
    }
  });
});
