import { StatsApp } from "./app.js";
import { StatsChannel } from "./channel.js";

let app: StatsApp | null = null;
const channel = new StatsChannel((message) => app?.receive(message));
app = new StatsApp(document.getElementById("root") ?? document.body, channel);
channel.ready({ type: "ready" });
