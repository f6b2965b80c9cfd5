package dev.deckhand.audit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;

/**
 * A copy of the latest seal kept beside the key file ({@code <key>.head}), outside the database,
 * so deleting the tail together with its seal rows is still seen as truncation. Format: one line
 * {@code seq hash-hex mac-hex}. Written after the seal's commit, so it is never ahead of the log.
 */
record HeadAnchor(long seq, byte[] hash, byte[] mac) {

    static Path pathFor(Path keyFile) {
        return keyFile.resolveSibling(keyFile.getFileName() + ".head");
    }

    static HeadAnchor read(Path file) {
        if (!Files.exists(file)) {
            return null;
        }
        try {
            String[] parts =
                    Files.readString(file, StandardCharsets.US_ASCII).strip().split(" ");
            if (parts.length != 3) {
                throw new AuditException("audit head anchor " + file + " is malformed");
            }
            return new HeadAnchor(
                    Long.parseLong(parts[0]),
                    HexFormat.of().parseHex(parts[1]),
                    HexFormat.of().parseHex(parts[2]));
        } catch (IOException | IllegalArgumentException e) {
            throw new AuditException("cannot read the audit head anchor " + file, e);
        }
    }

    void write(Path file) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        String line = seq + " " + HexFormat.of().formatHex(hash) + " "
                + HexFormat.of().formatHex(mac) + "\n";
        try {
            if (!Files.exists(tmp)) {
                try {
                    Files.createFile(
                            tmp,
                            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
                } catch (UnsupportedOperationException e) {
                    Files.createFile(tmp);
                }
            }
            Files.writeString(
                    tmp,
                    line,
                    StandardCharsets.US_ASCII,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.SYNC);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel dir = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
                dir.force(true);
            } catch (IOException ignored) {
                // some file systems cannot fsync a directory; the rename is still atomic
            }
        } catch (IOException e) {
            throw new AuditException("cannot write the audit head anchor " + file, e);
        }
    }
}
