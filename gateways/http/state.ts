import type { DefaultContext, ParameterizedContext } from 'koa';
import type { TraceFields } from '../../observability/index.js';
import type { Logger } from '../../observability/index.js';

/** What the gateway's own middleware puts on `ctx.state` for every later handler. */
export interface HttpState {
  /** Correlates the response, its error body and every log line of this request. */
  requestId: string;
  /** The process logger bound to `requestId`; handlers log through it. */
  log: Logger;
  /** The request's span (its fields) when tracing is on: the room commands it sends continue it. */
  trace?: TraceFields;
}

export type HttpContext = ParameterizedContext<HttpState, DefaultContext>;
