/**
 * A picture scaled down in the browser before it is uploaded as an avatar. The server decodes
 * at most 2048 pixels each way (AVATAR_MAX_SIDE, docs/2026-11-26-profiles-and-accounts.md),
 * which a phone photo passes; scaled here to FIT_SIDE, four times the largest size served, it
 * uploads faster and costs the server little to decode. A picture already small enough, or one
 * the browser cannot read, goes as it is (the server then names what is wrong with it).
 */

/** At most the server's AVATAR_MAX_SIDE (contracts/http/users.ts, not imported: it brings zod). */
const FIT_SIDE = 1024;

function encoded(canvas: HTMLCanvasElement): Promise<Blob | null> {
  // WebP where the browser writes it; PNG otherwise (toBlob's fallback). Both keep transparency.
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/webp', 0.92));
}

export async function fitPicture(file: Blob): Promise<ArrayBuffer> {
  let bitmap: ImageBitmap;
  try {
    // Upright: the EXIF orientation is applied by default.
    bitmap = await createImageBitmap(file);
  } catch {
    return file.arrayBuffer();
  }
  try {
    const scale = FIT_SIDE / Math.max(bitmap.width, bitmap.height);
    if (scale >= 1) return await file.arrayBuffer();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d');
    if (!context) return await file.arrayBuffer();
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await encoded(canvas);
    return blob ? await blob.arrayBuffer() : await file.arrayBuffer();
  } finally {
    bitmap.close();
  }
}
