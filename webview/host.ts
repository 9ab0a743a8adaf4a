import {
  PANEL_REQUEST_TIMEOUTS,
  parseToWebview,
  type FromWebview,
  type PanelState,
  type ToWebview,
} from "../src/protocol.js";
import { Channel } from "./channel.js";

/** The trace panel's end of its protocol: a request the host leaves unanswered times out. */
export class HostChannel extends Channel<ToWebview, FromWebview, PanelState> {
  constructor(onMessage: (message: Exclude<ToWebview, { requestId: number }>) => void) {
    super(parseToWebview, onMessage, PANEL_REQUEST_TIMEOUTS);
  }
}
