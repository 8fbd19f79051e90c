import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Requests handed to Next.js at most `slots` at a time, reads (GET, HEAD) ahead of
 * everything else (scripts/web.ts). Without it a burst shares the CPU among every
 * request in flight, so all finish late together: 50 run submissions beside the
 * first render of a finished run's page kept that render, and every read waiting
 * for it (lib/runs/kept-reads.ts), behind all of them. In turn, a page someone
 * waits on finishes first; a submission's runs start a little later. A write that
 * has waited `writeMaxWaitMs` goes next whatever reads wait, so reads never starve
 * writes. A request whose client went away while it waited is not handed on.
 */
export function admission(handle: Handler, { slots, writeMaxWaitMs = 2_000 }: { slots: number; writeMaxWaitMs?: number }): Handler {
  let inside = 0;
  const reads: (() => void)[] = [];
  const writes: { admit: () => void; since: number }[] = [];
  const admitNext = () => {
    while (inside < slots) {
      const writeDue = writes.length > 0 && performance.now() - writes[0].since >= writeMaxWaitMs;
      const admit = (writeDue ? writes.shift()?.admit : undefined) ?? reads.shift() ?? writes.shift()?.admit;
      if (!admit) return;
      admit();
    }
  };
  return (req, res) =>
    new Promise<void>((resolve) => {
      const admit = () => {
        if (res.destroyed || res.writableEnded) return resolve();
        inside++;
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          inside--;
          admitNext();
        };
        res.once('finish', release);
        res.once('close', release);
        Promise.resolve()
          .then(() => handle(req, res))
          .catch(() => {
            if (!res.headersSent) res.writeHead(500).end();
            release();
          })
          .finally(resolve);
      };
      if (req.method === 'GET' || req.method === 'HEAD') reads.push(admit);
      else writes.push({ admit, since: performance.now() });
      admitNext();
    });
}
