import {
  parseToStatsView,
  STATS_REQUEST_TIMEOUTS,
  type FromStatsView,
  type StatsPanelState,
  type ToStatsView,
} from "../../src/stats-protocol.js";
import { Channel } from "../channel.js";

/** The statistics view's end of its protocol. */
export class StatsChannel extends Channel<ToStatsView, FromStatsView, StatsPanelState> {
  constructor(onMessage: (message: Exclude<ToStatsView, { requestId: number }>) => void) {
    super(parseToStatsView, onMessage, STATS_REQUEST_TIMEOUTS);
  }
}
