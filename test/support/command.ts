/**
 * Node's arguments that start Vrata as `npm start` and the `vrata` command do (bin/vrata.js), for the
 * end-to-end server and the benchmark, so that both measure and test what people run. A start that
 * fills Node's compile cache must use the same flags: V8 only takes cached code made under them.
 */
export const vrataCommand = ["--expose-gc", "bin/vrata.js"];
