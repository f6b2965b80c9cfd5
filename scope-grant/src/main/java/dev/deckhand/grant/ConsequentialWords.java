package dev.deckhand.grant;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The consequential word list (DESIGN.md §3.3): categories ({@code send}, {@code buy}, {@code pay},
 * {@code delete}, {@code publish}, {@code confirm}, {@code submit}, {@code install}, {@code allow},
 * {@code paste}, and any the person adds), each with its words in English, German, French, Spanish,
 * Italian, Portuguese and Dutch. Naming a category on a grant allows every word of it.
 *
 * <p>The policy file's optional {@code consequentialWords} adds words and categories to the built-in
 * list; built-in words cannot be removed (like the built-in credential apps). Words are stored in
 * {@link Labels#normalize normal form}. A word of two categories belongs to the first that lists it.
 *
 * <p>{@link #CONTEXT_WORDS} ({@code ok}, {@code yes}, {@code accept} and their translations) gate only
 * inside a dialog whose text carries a gated word — where every button is consequential anyway.
 */
public record ConsequentialWords(Map<String, Set<String>> categories) {

    /** The built-in list, category → words (before normalisation). */
    public static final Map<String, List<String>> BUILTIN = builtin();

    /** Words that gate only inside a gated dialog (normal form). */
    public static final Set<String> CONTEXT_WORDS = Set.of("ok", "okay", "yes", "accept", "ja", "oui", "si", "sim",
            "akkoord", "d'accord", "daccord", "accepter", "aceptar", "accetta", "aceitar", "accepteren", "annehmen");

    public ConsequentialWords {
        Objects.requireNonNull(categories, "consequentialWords");
        Map<String, Set<String>> out = new TreeMap<>();
        for (Map.Entry<String, List<String>> e : BUILTIN.entrySet()) out.put(e.getKey(), normalized(e.getValue(), e.getKey()));
        for (Map.Entry<String, Set<String>> e : categories.entrySet()) {
            String category = e.getKey() == null ? "" : e.getKey().trim().toLowerCase(Locale.ROOT);
            if (!category.matches("[a-z][a-z0-9_-]{0,39}")) {
                throw new IllegalArgumentException("consequentialWords category '" + e.getKey()
                        + "' must be one lower-case word (letters, digits, _ or -)");
            }
            if (e.getValue() == null) throw new IllegalArgumentException("consequentialWords." + category + " must be a list of words");
            out.computeIfAbsent(category, c -> new TreeSet<>()).addAll(normalized(e.getValue(), category));
        }
        Map<String, Set<String>> frozen = new LinkedHashMap<>();
        out.forEach((k, v) -> frozen.put(k, Collections.unmodifiableSet(v)));
        categories = Collections.unmodifiableMap(frozen);
    }

    private static final ConsequentialWords DEFAULTS = new ConsequentialWords(Map.of());

    /** The built-in list alone. */
    public static ConsequentialWords defaults() {
        return DEFAULTS;
    }

    /** The category of a word already in {@link Labels#normalize normal form}, if it is gated. */
    public Optional<String> categoryOf(String normalWord) {
        for (Map.Entry<String, Set<String>> e : categories.entrySet()) {
            if (e.getValue().contains(normalWord)) return Optional.of(e.getKey());
        }
        return Optional.empty();
    }

    /** The categories of the gated words in a label (in category order), context words left out. */
    public Set<String> categoriesIn(String label) {
        Set<String> out = new TreeSet<>();
        for (String t : Labels.tokens(label)) categoryOf(t).ifPresent(out::add);
        return out;
    }

    /** Whether the label holds a context word ({@code OK}, {@code Yes}, {@code Accept}, …). */
    public static boolean hasContextWord(String label) {
        for (String t : Labels.tokens(label)) if (CONTEXT_WORDS.contains(t)) return true;
        return false;
    }

    private static Set<String> normalized(java.util.Collection<String> words, String category) {
        Set<String> out = new TreeSet<>();
        for (String w : words) {
            if (w == null || w.isBlank()) {
                throw new IllegalArgumentException("consequentialWords." + category + " entries must not be blank");
            }
            String n = Labels.normalize(w.trim());
            if (n.length() > 64) throw new IllegalArgumentException("consequentialWords." + category + " entry '" + w + "' is too long");
            out.add(n.replaceAll("[^\\p{L}\\p{N}]+", ""));
        }
        return out;
    }

    private static Map<String, List<String>> builtin() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        // English, German, French, Spanish, Italian, Portuguese, Dutch
        m.put("send", List.of("send", "senden", "abschicken", "versenden", "envoyer", "enviar", "invia", "inviare",
                "verzenden", "versturen", "verstuur", "verzend"));
        m.put("buy", List.of("buy", "purchase", "order", "checkout", "kaufen", "bestellen", "kasse", "acheter",
                "commander", "comprar", "pedir", "acquista", "acquistare", "ordina", "ordinare", "kopen", "afrekenen"));
        m.put("pay", List.of("pay", "transfer", "bezahlen", "zahlen", "überweisen", "payer", "virement", "pagar",
                "transferir", "paga", "pagare", "bonifico", "betalen", "overmaken"));
        m.put("delete", List.of("delete", "remove", "discard", "erase", "trash", "destroy", "wipe", "löschen",
                "entfernen", "verwerfen", "papierkorb", "supprimer", "effacer", "eliminar", "borrar", "descartar",
                "elimina", "cancella", "rimuovi", "scarta", "excluir", "apagar", "remover", "verwijderen", "wissen",
                "weggooien", "prullenbak"));
        m.put("publish", List.of("publish", "post", "tweet", "veröffentlichen", "posten", "publier", "publicar",
                "pubblica", "pubblicare", "publiceren", "plaatsen"));
        m.put("confirm", List.of("confirm", "sign", "bestätigen", "unterschreiben", "confirmer", "signer", "confirmar",
                "firmar", "conferma", "confermare", "firma", "assinar", "bevestigen", "ondertekenen"));
        m.put("submit", List.of("submit", "absenden", "einreichen", "soumettre", "valider", "presentar", "submeter",
                "indienen"));
        m.put("install", List.of("install", "installieren", "installer", "instalar", "installa", "installare",
                "installeren"));
        m.put("allow", List.of("allow", "permit", "authorize", "authorise", "erlauben", "zulassen", "autoriser",
                "permettre", "permitir", "autorizar", "consenti", "consentire", "autorizza", "toestaan", "autoriseren"));
        m.put("paste", List.of("paste", "einfügen", "coller", "pegar", "incolla", "colar", "plakken"));
        return Collections.unmodifiableMap(m);
    }
}
