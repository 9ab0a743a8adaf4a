import "./toolkit.js";
import { App } from "./app.js";
import { HostChannel } from "./host.js";

let app: App | null = null;
const channel = new HostChannel((message) => app?.receive(message));
app = new App(document.getElementById("root") ?? document.body, channel);
