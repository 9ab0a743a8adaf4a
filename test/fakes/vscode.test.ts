// The fake behaves as VS Code does where host code depends on it: URIs of Windows paths, globs,
// and no listener surviving from one test into the next.
import { describe, expect, it } from "vitest";
import { fake, RelativePattern, Uri, workspace } from "./vscode.js";

describe("fake Uri", () => {
  it("reads a Windows path as VS Code does: drive letter, backslashes, fsPath back", () => {
    const uri = Uri.file("C:\\work\\turns\\a b.turn.json");
    expect(uri.path).toBe("/C:/work/turns/a b.turn.json");
    expect(uri.fsPath).toBe("c:\\work\\turns\\a b.turn.json");
    expect(uri.toString()).toBe("file:///c%3A/work/turns/a%20b.turn.json");
    expect(Uri.parse(uri.toString()).fsPath).toBe("c:\\work\\turns\\a b.turn.json");
    expect(Uri.joinPath(uri, "..", "tools.catalog.json").fsPath).toBe(
      "c:\\work\\turns\\tools.catalog.json",
    );
  });

  it("reads a UNC share into authority and path", () => {
    const uri = Uri.file("\\\\server\\share\\x.turn.json");
    expect([uri.authority, uri.path]).toEqual(["server", "/share/x.turn.json"]);
    expect(uri.fsPath).toBe("\\\\server\\share\\x.turn.json");
    expect(uri.toString()).toBe("file://server/share/x.turn.json");
  });

  it("keeps a POSIX path as it is, and round-trips through toString and parse", () => {
    const uri = Uri.file("/ws/turns/w[1].turn.json");
    expect(uri.fsPath).toBe("/ws/turns/w[1].turn.json");
    expect(Uri.parse(uri.toString()).toString()).toBe(uri.toString());
    expect(Uri.parse("https://host/a/b?q=1#frag")).toMatchObject({
      scheme: "https",
      authority: "host",
      path: "/a/b",
      query: "q=1",
      fragment: "frag",
    });
  });
});

describe("fake file system watcher and findFiles", () => {
  it("report only the files their glob matches", async () => {
    fake.reset();
    const seen: string[] = [];
    const all = workspace.createFileSystemWatcher("**/*.turn.json");
    const one = workspace.createFileSystemWatcher(new RelativePattern(Uri.file("/ws/a"), "x.json"));
    all.onDidCreate((uri) => seen.push(`all ${uri.path}`));
    one.onDidCreate((uri) => seen.push(`one ${uri.path}`));
    fake.writeFile("/ws/a/x.json", "{}");
    fake.writeFile("/ws/a/b/x.json", "{}");
    fake.writeFile("/ws/b/c.turn.json", "{}");
    fake.writeFile("/ws/node_modules/d.turn.json", "{}");
    expect(seen).toEqual([
      "one /ws/a/x.json",
      "all /ws/b/c.turn.json",
      "all /ws/node_modules/d.turn.json",
    ]);
    const found = await workspace.findFiles("**/*.turn.json", "**/node_modules/**");
    expect(found.map((uri) => uri.path)).toEqual(["/ws/b/c.turn.json"]);
  });
});

describe("fake.reset", () => {
  it("drops every listener a test left behind", () => {
    fake.reset();
    const heard: string[] = [];
    workspace.onDidOpenTextDocument((doc) => heard.push(doc.uri.path));
    workspace.createFileSystemWatcher("**/*").onDidChange((uri) => heard.push(uri.path));
    fake.reset();
    fake.openDocument(Uri.file("/ws/a.turn.json"), "{}");
    fake.writeFile("/ws/a.turn.json", "{}");
    fake.writeFile("/ws/a.turn.json", "{ }");
    expect(heard).toEqual([]);
  });
});

describe("fake workspace folders", () => {
  it("are undefined with no workspace open, [] in a workspace file with no folders", () => {
    fake.reset();
    expect(workspace.workspaceFolders).toBeUndefined();
    fake.workspaceFile = Uri.file("/ws/empty.code-workspace");
    expect(workspace.workspaceFolders).toEqual([]);
    expect(workspace.workspaceFile).toBe(fake.workspaceFile);
    fake.addWorkspaceFolder("/ws/a");
    expect(workspace.workspaceFolders?.map((folder) => folder.name)).toEqual(["a"]);
    fake.reset();
    expect([workspace.workspaceFile, workspace.workspaceFolders]).toEqual([undefined, undefined]);
  });

  it("name a path inside them relatively, with the folder's name when asked or when there are several", () => {
    fake.reset();
    fake.addWorkspaceFolder("/ws/a");
    expect(workspace.asRelativePath(Uri.file("/ws/a/x.log"))).toBe("x.log");
    expect(workspace.asRelativePath(Uri.file("/ws/a/x.log"), true)).toBe("a/x.log");
    fake.addWorkspaceFolder("/ws/b");
    expect(workspace.asRelativePath("/ws/b/y.log")).toBe("b/y.log");
    expect(workspace.asRelativePath("/ws/b/y.log", false)).toBe("y.log");
    expect(workspace.asRelativePath("/elsewhere/z.log")).toBe("/elsewhere/z.log");
  });
});
