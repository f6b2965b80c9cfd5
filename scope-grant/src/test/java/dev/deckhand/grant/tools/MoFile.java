package dev.deckhand.grant.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A GNU gettext {@code .mo} file, read in Java (the format is small: a magic number giving the byte
 * order, a revision, the count of strings, and the offsets of two tables of (length, offset) pairs —
 * originals and translations; entry 0 is the header, whose {@code Content-Type} names the charset).
 */
public record MoFile(Path path, List<Entry> entries) {

    /** One message: its context (or ""), its English msgid and its translation; plurals are left out. */
    public record Entry(String context, String msgid, String translation) {}

    private static final int MAGIC = 0x950412de;
    private static final Pattern CHARSET = Pattern.compile("charset=([A-Za-z0-9_.:-]+)");

    public static MoFile read(Path path) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(0) != MAGIC) {
            b.order(ByteOrder.BIG_ENDIAN);
            if (b.getInt(0) != MAGIC) throw new IOException(path + " is not a .mo file");
        }
        int count = b.getInt(8);
        int originals = b.getInt(12);
        int translations = b.getInt(16);
        Charset charset = StandardCharsets.UTF_8;
        List<Entry> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] o = bytes(b, originals + 8 * i);
            byte[] t = bytes(b, translations + 8 * i);
            if (i == 0 && o.length == 0) {
                Matcher m = CHARSET.matcher(new String(t, StandardCharsets.US_ASCII));
                if (m.find() && Charset.isSupported(m.group(1))) charset = Charset.forName(m.group(1));
                continue;
            }
            String id = new String(o, charset);
            if (id.indexOf('\0') >= 0) continue; // a plural: never a button label
            String context = "";
            int eot = id.indexOf('\u0004');
            if (eot >= 0) {
                context = id.substring(0, eot);
                id = id.substring(eot + 1);
            }
            out.add(new Entry(context, id, new String(t, charset)));
        }
        return new MoFile(path, out);
    }

    private static byte[] bytes(ByteBuffer b, int at) {
        int length = b.getInt(at);
        int offset = b.getInt(at + 4);
        byte[] out = new byte[length];
        b.get(offset, out);
        return out;
    }
}
