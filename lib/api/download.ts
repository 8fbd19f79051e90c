/** A file download: the body with its type and an attachment filename (sanitised). */
export function downloadResponse(file: { filename: string; contentType: string; body: string }): Response {
  return new Response(file.body, {
    headers: {
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${file.filename.replace(/[^A-Za-z0-9_.-]/g, '')}"`,
    },
  });
}
