import fs from 'node:fs';
import path from 'node:path';

/** Every .ts/.tsx file under these folders, generated code left out: what the source rules read. */
export function sources(...dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    fs
      .readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
      .map((e) => path.join(e.parentPath, e.name))
      .filter((f) => !f.includes(`${path.sep}generated${path.sep}`)),
  );
}
