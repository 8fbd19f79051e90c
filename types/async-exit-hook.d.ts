declare module 'async-exit-hook' {
  interface AsyncExitHook {
    (hook: (done?: () => void) => void): void;
    /** Stops listening to one process event (e.g. 'beforeExit'). */
    unhookEvent(event: string): void;
  }
  const exitHook: AsyncExitHook;
  export default exitHook;
}
