import { LIMITS } from '@duet/contracts';
import type { ImageMimeType } from '@duet/contracts';
import type { RequestHandler } from 'express';
import { fileTypeFromBuffer } from 'file-type';
import multer from 'multer';
import { AppError } from './errors.ts';

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: LIMITS.imageMaxBytes, files: 1, fields: 10, fieldSize: 64 * 1024 },
}).single('image');

/**
 * Reads a multipart body (fields plus at most one `image` file) into memory. A JSON body
 * passes through untouched. Multer's limit errors become 413 / 400 answers.
 */
export const multipartBody: RequestHandler = (req, res, next) => {
  if (!req.is('multipart/form-data')) return next();
  upload(req, res, (err: unknown) => {
    if (!err) return next();
    if (err instanceof multer.MulterError) {
      if (err.code === 'LIMIT_FILE_SIZE') {
        return next(new AppError(413, 'image_too_large', 'The image is larger than 4.5 MB'));
      }
      if (err.code === 'LIMIT_FIELD_VALUE' || err.code === 'LIMIT_FIELD_COUNT') {
        return next(new AppError(413, 'payload_too_large', 'The form is too large'));
      }
      return next(new AppError(400, 'validation_failed', `Bad upload: ${err.message} (${err.field ?? 'form'})`));
    }
    next(new AppError(400, 'validation_failed', 'The form could not be read'));
  });
};

/** Judges an uploaded file by its magic bytes, never by its name or declared type. */
export async function sniffImage(data: Buffer): Promise<ImageMimeType> {
  const type = await fileTypeFromBuffer(data);
  const mime = type?.mime as ImageMimeType | undefined;
  if (!mime || !(LIMITS.imageMimeTypes as readonly string[]).includes(mime)) {
    throw new AppError(415, 'unsupported_image_type', 'Only PNG, JPEG, GIF or WebP images are accepted');
  }
  return mime;
}
