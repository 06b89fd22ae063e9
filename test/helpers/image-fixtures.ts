/**
 * Images as phones and editors make them, carrying what must never leave with a battle: EXIF with
 * a camera and a GPS position, XMP, IPTC, comments, PNG text chunks. Made with the encoders a
 * camera app would use (libvips through sharp), and the blocks sharp cannot write spliced in the
 * way the file formats define them.
 */
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import type { Sharp } from 'sharp';

/** Strings hidden in the fixtures' metadata: none may be found in what Duet keeps. */
export const SECRETS = {
  make: 'DuetCam',
  model: 'Pocket X1',
  author: 'Jane Secret',
  comment: 'taken at home, 12 Sejong-daero',
  software: 'SecretEditor 9',
} as const;

/** Seoul City Hall, as a phone writes it: 37.5665 N, 126.9780 E. */
const GPS = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '37/1 33/1 5940/100',
  GPSLongitudeRef: 'E',
  GPSLongitude: '126/1 58/1 4080/100',
};

const EXIF = { IFD0: { Make: SECRETS.make, Model: SECRETS.model, Software: SECRETS.software, Artist: SECRETS.author }, IFD3: GPS };

const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>${SECRETS.author}</rdf:li></rdf:Seq></dc:creator></rdf:Description>` +
  '</rdf:RDF></x:xmpmeta>';

/** A picture with some detail, so encoders have something to keep: a gradient in two halves. */
function picture(width: number, height: number, split: 'left-right' | 'none' = 'none'): Sharp {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const left = x < width / 2;
      data[i] = split === 'left-right' ? (left ? 230 : 20) : (x * 255) / width;
      data[i + 1] = split === 'left-right' ? 20 : (y * 255) / height;
      data[i + 2] = split === 'left-right' ? (left ? 20 : 230) : 128;
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } });
}

/** A JPEG segment: marker, big-endian length (itself included), payload. */
function jpegSegment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** An IPTC by-line (2:80) in a Photoshop APP13 block, as photo editors store the author. */
function iptcApp13(author: string): Buffer {
  const name = Buffer.from(author);
  const record = Buffer.concat([Buffer.from([0x1c, 0x02, 0x50, name.length >> 8, name.length & 0xff]), name]);
  const resource = Buffer.alloc(12);
  resource.write('8BIM', 0);
  resource.writeUInt16BE(0x0404, 4);
  // Empty Pascal name (two bytes with padding), then the data's length.
  resource.writeUInt32BE(record.length, 8);
  const padded = record.length % 2 ? Buffer.concat([record, Buffer.alloc(1)]) : record;
  return jpegSegment(0xed, Buffer.concat([Buffer.from('Photoshop 3.0\0'), resource, padded]));
}

/** A phone photo: JPEG with EXIF (camera, GPS), XMP, an IPTC author and a comment; `width` × `height`. */
export async function gpsJpeg(width = 1200, height = 900): Promise<Buffer> {
  const jpeg = await picture(width, height).withExif(EXIF).withXmp(XMP).jpeg({ quality: 85 }).toBuffer();
  // After the start-of-image marker: a comment and an IPTC block, which sharp does not write.
  return Buffer.concat([jpeg.subarray(0, 2), jpegSegment(0xfe, Buffer.from(SECRETS.comment)), iptcApp13(SECRETS.author), jpeg.subarray(2)]);
}

/**
 * A phone photo taken with the phone turned: stored 400 × 200, red on the left and blue on the
 * right, with EXIF orientation 6 (turn 90° clockwise to show it). Upright it is 200 × 400, red
 * above and blue below.
 */
export async function rotatedJpeg(): Promise<Buffer> {
  return picture(400, 200, 'left-right').withExif(EXIF).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toBuffer();
}

/** A PNG chunk: length, type, data, CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG with tEXt, zTXt and iTXt chunks (author, comment, software) and an eXIf chunk with GPS. */
export async function pngWithText(): Promise<Buffer> {
  const png = await picture(320, 240).png().toBuffer();
  const exif = await picture(8, 8).withExif(EXIF).jpeg().toBuffer();
  const tiff = exifTiff(exif);
  const chunks = [
    pngChunk('tEXt', Buffer.from(`Author\0${SECRETS.author}`, 'latin1')),
    pngChunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), deflateSync(Buffer.from(SECRETS.comment))])),
    pngChunk('iTXt', Buffer.concat([Buffer.from('Software\0\0\0\0\0'), Buffer.from(SECRETS.software)])),
    pngChunk('eXIf', tiff),
  ];
  // After the signature and IHDR (8 + 25 bytes), before the image data.
  return Buffer.concat([png.subarray(0, 33), ...chunks, png.subarray(33)]);
}

/** The TIFF body of a JPEG's EXIF segment (what a PNG's eXIf chunk holds). */
function exifTiff(jpeg: Buffer): Buffer {
  const at = jpeg.indexOf(Buffer.from('Exif\0\0'));
  const length = jpeg.readUInt16BE(at - 2);
  return jpeg.subarray(at + 6, at - 2 + length);
}

/** A WebP with EXIF (camera, GPS) and XMP chunks. */
export async function webpWithExif(): Promise<Buffer> {
  return picture(640, 480).withExif(EXIF).withXmp(XMP).webp({ quality: 80 }).toBuffer();
}

/** An animated GIF of two 40 × 40 frames: red, then blue. */
export async function animatedGif(): Promise<Buffer> {
  const frame = (r: number, b: number) => Buffer.alloc(40 * 40 * 3).map((_, i) => (i % 3 === 0 ? r : i % 3 === 2 ? b : 0));
  return sharp(Buffer.concat([frame(230, 20), frame(20, 230)]), { raw: { width: 40, height: 80, channels: 3, pageHeight: 40 } })
    .gif({ delay: [200, 200], loop: 0 })
    .toBuffer();
}

/**
 * A decompression bomb: a valid 20,000 × 20,000 PNG (400 megapixels, one bit each, all black) of
 * about 50 KB, which decodes to 1.2 GB of RGB.
 */
export function bombPng(side = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const row = 1 + Math.ceil(side / 8); // filter byte, then the row's bits
  const raw = Buffer.alloc(row * side);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What a kept image must not carry: every metadata block sharp can see, and every secret's bytes. */
export async function leftovers(image: Buffer): Promise<string[]> {
  const found: string[] = [];
  const meta = await sharp(image).metadata();
  for (const key of ['exif', 'xmp', 'iptc', 'icc', 'comments', 'tifftagPhotoshop'] as const) {
    if (meta[key] !== undefined) found.push(`metadata.${key}`);
  }
  if (meta.orientation !== undefined && meta.orientation !== 1) found.push(`orientation ${meta.orientation}`);
  for (const [name, secret] of Object.entries(SECRETS)) if (image.includes(secret)) found.push(`secret ${name}`);
  for (const marker of ['Exif\0\0', 'http://ns.adobe.com/', 'adobe:ns:meta', 'Photoshop 3.0', '8BIM', 'tEXt', 'zTXt', 'iTXt', 'eXIf', 'XMP ']) {
    if (image.includes(marker)) found.push(`bytes "${marker.replace('\0', '\\0')}"`);
  }
  return found;
}
