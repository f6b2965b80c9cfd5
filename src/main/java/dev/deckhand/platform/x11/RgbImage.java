package dev.deckhand.platform.x11;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Packed {@code 0xRRGGBB} pixels, row-major, plus the two things a capture needs: a box-filter
 * downscale and fast encoders. Pure Java, no native code.
 */
final class RgbImage {

    final int width;
    final int height;
    /** {@code width * height} pixels, high byte ignored. */
    final int[] pixels;

    RgbImage(int width, int height, int[] pixels) {
        if (width <= 0) throw new IllegalArgumentException("width must be > 0, was " + width);
        if (height <= 0) throw new IllegalArgumentException("height must be > 0, was " + height);
        if (pixels.length < width * height) {
            throw new IllegalArgumentException(
                    "pixels must hold width*height = " + width * height + ", was " + pixels.length);
        }
        this.width = width;
        this.height = height;
        this.pixels = pixels;
    }

    int rgb(int x, int y) {
        return pixels[y * width + x] & 0xffffff;
    }

    /** Output size for a long edge: unchanged when the image already fits. */
    static int[] scaledSize(int width, int height, int longEdge) {
        if (longEdge <= 0) throw new IllegalArgumentException("longEdge must be > 0, was " + longEdge);
        int srcLong = Math.max(width, height);
        if (srcLong <= longEdge) return new int[] {width, height};
        double s = (double) longEdge / srcLong;
        return new int[] {Math.max(1, (int) Math.round(width * s)), Math.max(1, (int) Math.round(height * s))};
    }

    /** 1/n for box sizes up to 256 pixels: a multiply per channel instead of a division. */
    private static final double[] INVERSE = new double[257];

    static {
        for (int n = 1; n < INVERSE.length; n++) INVERSE[n] = 1.0 / n;
    }

    /** Area-average (box filter) downscale to {@code outW × outH}; returns this when sizes match. */
    RgbImage downscale(int outW, int outH) {
        if (outW == width && outH == height) return this;
        if (outW > width || outH > height) throw new IllegalArgumentException("downscale only: " + outW + "x" + outH);
        if ((long) (width / outW + 1) * (height / outH + 1) > 256) {
            // Extreme ratios: halve first so one box stays within 256 pixels, which keeps the blue
            // lane below from carrying into red.
            return downscale(Math.max(outW, (width + 1) / 2), Math.max(outH, (height + 1) / 2))
                    .downscale(outW, outH);
        }
        int[] xStart = new int[outW + 1];
        for (int c = 0; c <= outW; c++) xStart[c] = (int) ((long) c * width / outW);
        int[] out = new int[outW * outH];
        int y0 = 0;
        for (int oy = 0; oy < outH; oy++) {
            int y1 = (int) ((long) (oy + 1) * height / outH);
            int ob = oy * outW;
            for (int c = 0; c < outW; c++) {
                int x0 = xStart[c], x1 = xStart[c + 1];
                // Red and blue in separate lanes of one long, green alone: two adds per pixel.
                long rb = 0, g = 0;
                for (int y = y0; y < y1; y++) {
                    int base = y * width;
                    for (int x = x0; x < x1; x++) {
                        int p = pixels[base + x];
                        rb += p & 0xff00ff;
                        g += p & 0xff00;
                    }
                }
                double inv = INVERSE[(x1 - x0) * (y1 - y0)];
                int r = (int) ((rb >>> 16) * inv + 0.5),
                        bl = (int) ((rb & 0xffff) * inv + 0.5),
                        gr = (int) ((g >>> 8) * inv + 0.5);
                out[ob + c] = r << 16 | gr << 8 | bl;
            }
            y0 = y1;
        }
        return new RgbImage(outW, outH, out);
    }

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    /** Images smaller than this many raw bytes are compressed on the calling thread alone. */
    private static final int PARALLEL_MIN_BYTES = 512 * 1024;

    /** At most this many bands are deflated at once (1 = single-threaded; the bench compares both). */
    static volatile int maxBands = 4;

    /**
     * PNG, 8-bit RGB, filter "none" on every row, deflate level 1: a few times faster than ImageIO's
     * PNG writer for a somewhat larger file. Large images are split into row bands that are packed
     * and deflated in parallel (pigz-style: every band but the last ends with a sync flush, so the
     * raw deflate streams concatenate into one valid zlib stream; the Adler-32 covers all bytes).
     */
    byte[] png() {
        int stride = 1 + 3 * width;
        long rawBytes = (long) stride * height;
        int bands = rawBytes < PARALLEL_MIN_BYTES
                ? 1
                : Math.max(1, Math.min(maxBands, Math.min(Runtime.getRuntime().availableProcessors(), height)));
        byte[] raw = new byte[(int) rawBytes];
        byte[][] parts = new byte[bands][];
        if (bands == 1) {
            parts[0] = packAndDeflate(raw, stride, 0, height, true);
        } else {
            @SuppressWarnings("unchecked")
            java.util.concurrent.CompletableFuture<byte[]>[] jobs = new java.util.concurrent.CompletableFuture[bands];
            for (int i = 0; i < bands; i++) {
                int y0 = (int) ((long) height * i / bands), y1 = (int) ((long) height * (i + 1) / bands);
                boolean last = i == bands - 1;
                if (last) {
                    parts[i] = packAndDeflate(raw, stride, y0, y1, true); // this thread takes the last band
                } else {
                    jobs[i] = java.util.concurrent.CompletableFuture.supplyAsync(
                            () -> packAndDeflate(raw, stride, y0, y1, false));
                }
            }
            for (int i = 0; i < bands - 1; i++) parts[i] = jobs[i].join();
        }
        java.util.zip.Adler32 adler = new java.util.zip.Adler32();
        adler.update(raw);
        int idatLength = 2 + 4;
        for (byte[] part : parts) idatLength += part.length;
        ByteBuffer idat = ByteBuffer.allocate(idatLength);
        idat.put((byte) 0x78).put((byte) 0x01); // zlib header: deflate, 32K window, fastest
        for (byte[] part : parts) idat.put(part);
        idat.putInt((int) adler.getValue());
        ByteBuffer out = ByteBuffer.allocate(PNG_SIGNATURE.length + 25 + 12 + idatLength + 12);
        out.put(PNG_SIGNATURE);
        ByteBuffer ihdr = ByteBuffer.allocate(13);
        ihdr.putInt(width)
                .putInt(height)
                .put((byte) 8)
                .put((byte) 2)
                .put((byte) 0)
                .put((byte) 0)
                .put((byte) 0);
        chunk(out, "IHDR", ihdr.array());
        chunk(out, "IDAT", idat.array());
        chunk(out, "IEND", new byte[0]);
        return out.array();
    }

    /** Packs rows [y0, y1) as filter-0 RGB into {@code raw} and deflates them as a raw deflate stream. */
    private byte[] packAndDeflate(byte[] raw, int stride, int y0, int y1, boolean last) {
        int o = y0 * stride;
        int start = o;
        for (int y = y0; y < y1; y++) {
            raw[o++] = 0;
            int base = y * width;
            for (int x = 0; x < width; x++) {
                int p = pixels[base + x];
                raw[o++] = (byte) (p >>> 16);
                raw[o++] = (byte) (p >>> 8);
                raw[o++] = (byte) p;
            }
        }
        Deflater deflater = new Deflater(1, true);
        try {
            deflater.setInput(raw, start, o - start);
            byte[] buf = new byte[Math.max(64 * 1024, (o - start) / 8)];
            int n = 0;
            if (last) {
                deflater.finish();
                while (!deflater.finished()) {
                    if (n == buf.length) buf = java.util.Arrays.copyOf(buf, buf.length * 2);
                    n += deflater.deflate(buf, n, buf.length - n);
                }
            } else {
                while (true) {
                    if (n == buf.length) buf = java.util.Arrays.copyOf(buf, buf.length * 2);
                    int got = deflater.deflate(buf, n, buf.length - n, Deflater.SYNC_FLUSH);
                    n += got;
                    if (n < buf.length) break; // flush complete: the output did not fill the buffer
                }
            }
            return java.util.Arrays.copyOf(buf, n);
        } finally {
            deflater.end();
        }
    }

    private static void chunk(ByteBuffer out, String type, byte[] data) {
        byte[] t = type.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        out.putInt(data.length);
        out.put(t);
        out.put(data);
        CRC32 crc = new CRC32();
        crc.update(t);
        crc.update(data);
        out.putInt((int) crc.getValue());
    }

    /** Baseline JPEG through ImageIO at {@code quality} in (0, 1]. */
    byte[] jpeg(float quality) {
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        int[] dst = ((DataBufferInt) img.getRaster().getDataBuffer()).getData();
        System.arraycopy(pixels, 0, dst, 0, width * height);
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(width * height / 4);
            try (MemoryCacheImageOutputStream stream = new MemoryCacheImageOutputStream(bytes)) {
                writer.setOutput(stream);
                ImageWriteParam param = writer.getDefaultWriteParam();
                param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
                param.setCompressionQuality(quality);
                writer.write(null, new IIOImage(img, null, null), param);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.dispose();
        }
    }
}
