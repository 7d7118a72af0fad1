import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry } from "prom-client";
import { registry } from "./metrics.ts";

// With several workers, a scrape of /metrics reaches one of them, chosen by the cluster's socket:
// that worker asks the primary, which gathers every worker's figures with prom-client's aggregator
// and answers with their sums, so that the instance reports as one.

const askMessage = "vrata:metrics";
const answerMessage = "vrata:metrics-answer";
const answerTimeoutMs = 5000;

interface Ask {
  type: typeof askMessage;
  id: string;
}
interface Answer {
  type: typeof answerMessage;
  id: string;
  text?: string;
  error?: string;
}

const isAsk = (message: unknown): message is Ask => (message as Partial<Ask> | null)?.type === askMessage;
const isAnswer = (message: unknown): message is Answer =>
  (message as Partial<Answer> | null)?.type === answerMessage;

/** In the primary: answers any worker that asks for the instance's metrics. */
export function gatherWorkerMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: unknown) => {
    if (!isAsk(message)) return;
    aggregator
      .clusterMetrics()
      .then(
        (text) => ({ text }),
        (error: unknown) => ({ error: String(error) }),
      )
      .then(
        (result) => {
          if (worker.isConnected())
            worker.send({ type: answerMessage, id: message.id, ...result } satisfies Answer);
        },
        () => undefined,
      );
  });
}

/** In a worker: lets the primary read this worker's metrics (prom-client answers its requests). */
export function shareMetricsWithPrimary(): void {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs the worker's listener for the primary's requests.
  new AggregatorRegistry();
}

/** The instance's metrics in Prometheus' text format: every worker's summed, or this process's own. */
export function instanceMetrics(): Promise<string> {
  if (!cluster.isWorker) return registry.metrics();
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      process.off("message", onMessage);
    };
    const onMessage = (message: unknown) => {
      if (!isAnswer(message) || message.id !== id) return;
      finish();
      if (message.text === undefined)
        reject(new Error(`the primary could not gather metrics: ${message.error ?? ""}`));
      else resolve(message.text);
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error("the primary did not answer with the metrics"));
    }, answerTimeoutMs);
    process.on("message", onMessage);
    process.send?.({ type: askMessage, id } satisfies Ask);
  });
}
