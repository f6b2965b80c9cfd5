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
            throw new IllegalArgumentException("pixels must hold width*height = " + width * height + ", was " + pixels.length);
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

    /** Area-average (box filter) downscale to {@code outW × outH}; returns this when sizes match. */
    RgbImage downscale(int outW, int outH) {
        if (outW == width && outH == height) return this;
        if (outW > width || outH > height) throw new IllegalArgumentException("downscale only: " + outW + "x" + outH);
        int[] xStart = new int[outW + 1];
        for (int c = 0; c <= outW; c++) xStart[c] = (int) ((long) c * width / outW);
        int[] out = new int[outW * outH];
        long[] rSum = new long[outW], gSum = new long[outW], bSum = new long[outW];
        int sy = 0;
        for (int oy = 0; oy < outH; oy++) {
            int yEnd = (int) ((long) (oy + 1) * height / outH);
            int rows = yEnd - sy;
            java.util.Arrays.fill(rSum, 0);
            java.util.Arrays.fill(gSum, 0);
            java.util.Arrays.fill(bSum, 0);
            for (; sy < yEnd; sy++) {
                int base = sy * width;
                for (int c = 0; c < outW; c++) {
                    int x1 = xStart[c + 1];
                    long r = 0, g = 0, b = 0;
                    for (int x = xStart[c]; x < x1; x++) {
                        int p = pixels[base + x];
                        r += (p >>> 16) & 0xff;
                        g += (p >>> 8) & 0xff;
                        b += p & 0xff;
                    }
                    rSum[c] += r;
                    gSum[c] += g;
                    bSum[c] += b;
                }
            }
            int ob = oy * outW;
            for (int c = 0; c < outW; c++) {
                long n = (long) (xStart[c + 1] - xStart[c]) * rows;
                long h = n >> 1;
                out[ob + c] = (int) ((rSum[c] + h) / n) << 16 | (int) ((gSum[c] + h) / n) << 8 | (int) ((bSum[c] + h) / n);
            }
        }
        return new RgbImage(outW, outH, out);
    }

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    /**
     * PNG, 8-bit RGB, filter "none" on every row, deflate level 1: a few times faster than ImageIO's
     * PNG writer for a somewhat larger file (LINUX-DESKTOP.md: 6.4 ms / 70 KB vs 27.5 ms / 53 KB).
     */
    byte[] png() {
        int stride = 1 + 3 * width;
        byte[] raw = new byte[stride * height];
        int o = 0;
        for (int y = 0; y < height; y++) {
            raw[o++] = 0;
            int base = y * width;
            for (int x = 0; x < width; x++) {
                int p = pixels[base + x];
                raw[o++] = (byte) (p >>> 16);
                raw[o++] = (byte) (p >>> 8);
                raw[o++] = (byte) p;
            }
        }
        Deflater deflater = new Deflater(1);
        byte[] idat;
        try {
            deflater.setInput(raw);
            deflater.finish();
            ByteArrayOutputStream z = new ByteArrayOutputStream(raw.length / 8 + 1024);
            byte[] buf = new byte[64 * 1024];
            while (!deflater.finished()) {
                int n = deflater.deflate(buf);
                z.write(buf, 0, n);
            }
            idat = z.toByteArray();
        } finally {
            deflater.end();
        }
        ByteBuffer out = ByteBuffer.allocate(PNG_SIGNATURE.length + 25 + 12 + idat.length + 12);
        out.put(PNG_SIGNATURE);
        ByteBuffer ihdr = ByteBuffer.allocate(13);
        ihdr.putInt(width).putInt(height).put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
        chunk(out, "IHDR", ihdr.array());
        chunk(out, "IDAT", idat);
        chunk(out, "IEND", new byte[0]);
        return out.array();
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
