package dev.deckhand.grant;

import static dev.deckhand.grant.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** One test (at least) per refusal code the policy owns: the code, and a detail naming what fired. */
@Tag("pure")
class PolicyTest {

    static Refusal refused(PolicyDecision d) {
        assertInstanceOf(PolicyDecision.Refuse.class, d, "expected a refusal, got " + d);
        return d.refusal().orElseThrow();
    }

    static void assertRefused(PolicyDecision d, RefusalCode code, String... named) {
        Refusal r = refused(d);
        assertEquals(code, r.code(), r.toString());
        for (String n : named) {
            assertTrue(r.detail().contains(n), "detail '" + r.detail() + "' should name " + n);
        }
    }

    /** The refusal's detail holds none of {@code screenText}: what the app shows is never quoted. */
    static void assertQuotesNot(PolicyDecision d, String... screenText) {
        Refusal r = refused(d);
        for (String t : screenText) {
            assertFalse(r.detail().contains(t), "detail '" + r.detail() + "' must not quote " + t);
        }
    }

    @Test
    void quietAutonomousClickIsAllowed() {
        assertInstanceOf(PolicyDecision.Allow.class, Policy.check(auto(), autonomous(), quiet(), click(OK_BUTTON)));
    }

    // ---- OWN_WINDOW ----

    @Test
    void ownWindowRefusedNamingTheWindow() {
        ProposedAction a = ProposedAction.on(ActionKind.CLICK, REV, OWN_PAGE, OK_BUTTON);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), a),
                RefusalCode.OWN_WINDOW,
                "0x200",
                "Chromium",
                "Deckhand");
    }

    @Test
    void ownElementRefusedNamingTheElement() {
        ProposedAction.Element overlay = new ProposedAction.Element("panel", "Deckhand overlay", true, false);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), click(overlay)),
                RefusalCode.OWN_WINDOW,
                "panel (name of 16 characters)");
        assertQuotesNot(Policy.check(auto(), autonomous(), quiet(), click(overlay)), "overlay");
    }

    @Test
    void ownWindowRefusedEvenForNonInputActions() {
        ProposedAction wait = ProposedAction.bare(ActionKind.WAIT, REV, OWN_PAGE);
        assertRefused(Policy.check(auto(), autonomous(), quiet(), wait), RefusalCode.OWN_WINDOW, "0x200");
    }

    // ---- SECURE_INPUT ----

    @Test
    void passwordFocusRefused() {
        assertRefused(
                Policy.check(auto(), autonomous(), quiet().withPasswordFocused(true), click(OK_BUTTON)),
                RefusalCode.SECURE_INPUT,
                "password field");
    }

    @Test
    void keyboardGrabRefused() {
        assertRefused(
                Policy.check(auto(), autonomous(), quiet().withKeyboardGrabbed(true), click(OK_BUTTON)),
                RefusalCode.SECURE_INPUT,
                "keyboard grab");
    }

    @Test
    void passwordFieldTargetRefusedNamingIt() {
        ProposedAction.Element pw = new ProposedAction.Element("password text", "Master password", false, false);
        ProposedAction a = ProposedAction.on(ActionKind.SET_TEXT, REV, TARGET, pw);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), a),
                RefusalCode.SECURE_INPUT,
                "password text (name of 15 characters)");
        assertQuotesNot(Policy.check(auto(), autonomous(), quiet(), a), "Master");
    }

    @Test
    void secureInputDoesNotStopNonInputActions() {
        ProposedAction wait = ProposedAction.bare(ActionKind.WAIT, REV, TARGET);
        assertTrue(Policy.check(auto(), autonomous(), quiet().withPasswordFocused(true), wait)
                .allowed());
    }

    // ---- deny lists ----

    @Test
    void credentialAppRunningRefusedNamingIt() {
        Facts f = quiet().withRunningApps(Set.of("mousepad", "KeePassXC"));
        assertRefused(
                Policy.check(auto(), autonomous(), f, click(OK_BUTTON)), RefusalCode.DENY_CREDENTIAL_APP, "keepassxc");
    }

    @Test
    void userAddedCredentialAppRefusedNamingIt() {
        PolicyConfig c = auto().withCredentialApps(Set.of("mysecrets"));
        Facts f = quiet().withRunningApps(Set.of("mousepad", "mysecrets"));
        assertRefused(Policy.check(c, autonomous(), f, click(OK_BUTTON)), RefusalCode.DENY_CREDENTIAL_APP, "mysecrets");
    }

    @Test
    void commsAppVisibleRefusedNamingIt() {
        List<Facts.WindowFact> ws = new ArrayList<>(quiet().windows());
        ws.add(new Facts.WindowFact(0x500, "Slack", "general", false, true));
        assertRefused(
                Policy.check(auto(), autonomous(), quiet().withWindows(ws), click(OK_BUTTON)),
                RefusalCode.DENY_COMMS_VISIBLE,
                "slack");
    }

    @Test
    void commsAppHiddenIsNotRefused() {
        List<Facts.WindowFact> ws = new ArrayList<>(quiet().windows());
        ws.add(new Facts.WindowFact(0x500, "Slack", "general", false, false));
        assertTrue(Policy.check(auto(), autonomous(), quiet().withWindows(ws), click(OK_BUTTON))
                .allowed());
    }

    @Test
    void deniedHostRefusedNamingIt() {
        Facts f = quiet().withBrowser(Optional.of("Accounts.Google.com"));
        assertRefused(
                Policy.check(auto(), autonomous(), f, click(OK_BUTTON)),
                RefusalCode.DENY_HOST,
                "deniedHosts",
                "19 characters");
        assertQuotesNot(Policy.check(auto(), autonomous(), f, click(OK_BUTTON)), "google");
    }

    @Test
    void subdomainOfDeniedHostRefused() {
        PolicyConfig c = auto().withDeniedHosts(Set.of("bank.example"));
        Facts f = quiet().withBrowser(Optional.of("login.bank.example"));
        assertRefused(Policy.check(c, autonomous(), f, click(OK_BUTTON)), RefusalCode.DENY_HOST, "deniedHosts");
        assertQuotesNot(Policy.check(c, autonomous(), f, click(OK_BUTTON)), "login", "bank");
    }

    @Test
    void unknownHostInBrowserRefused() {
        Facts f = quiet().withBrowser(Optional.empty());
        assertRefused(Policy.check(auto(), autonomous(), f, click(OK_BUTTON)), RefusalCode.DENY_HOST, "unknown");
    }

    @Test
    void aLocalDocumentIsAllowedUnlessThePolicySaysNoAndABrowsersOwnPageNever() {
        Facts local = quiet().withBrowser(Optional.of(Facts.LOCAL_DOCUMENT));
        // a local document has no host: the host lists do not apply to it
        assertTrue(Policy.check(auto(), autonomous(), local, click(OK_BUTTON)).allowed());
        assertTrue(Policy.check(auto().withAllowedHosts(Set.of("example.org")), autonomous(), local, click(OK_BUTTON))
                .allowed());
        assertRefused(
                Policy.check(auto().withAllowLocalFiles(false), autonomous(), local, click(OK_BUTTON)),
                RefusalCode.DENY_HOST,
                "allowLocalFiles is false");
        for (String scheme : List.of("chrome:", "about:", "view-source:", "data:", "chrome-extension:")) {
            assertRefused(
                    Policy.check(auto(), autonomous(), quiet().withBrowser(Optional.of(scheme)), click(OK_BUTTON)),
                    RefusalCode.DENY_HOST,
                    "(" + scheme + ")",
                    "never in scope");
        }
        // its pixels are withheld: a local page may show files out of the tree's sight (round 14's L6)
        Optional<Refusal> capture = Policy.beforeCapture(auto(), autonomous(), local, TARGET, true);
        assertEquals(RefusalCode.SECURE_INPUT, capture.orElseThrow().code());
        assertTrue(
                capture.get().detail().contains("local document"), capture.get().detail());
        assertTrue(
                Policy.beforeCapture(auto(), autonomous(), local, TARGET, false).isEmpty(), "the tree is read");
        assertTrue(
                Policy.beforeCapture(
                                auto(), autonomous(), quiet().withBrowser(Optional.of("example.org")), TARGET, true)
                        .isEmpty(),
                "a page on the web is captured");
        // a scheme of the page's own making is named by its length only
        Facts custom = quiet().withBrowser(Optional.of("x-owner-token-abc:"));
        assertRefused(
                Policy.check(auto(), autonomous(), custom, click(OK_BUTTON)), RefusalCode.DENY_HOST, "17 characters");
        assertQuotesNot(Policy.check(auto(), autonomous(), custom, click(OK_BUTTON)), "owner");
    }

    @Test
    void hostOffTheAllowListRefusedNamingIt() {
        PolicyConfig c = auto().withAllowedHosts(Set.of("example.org"));
        assertRefused(
                Policy.check(c, autonomous(), quiet().withBrowser(Optional.of("example.com")), click(OK_BUTTON)),
                RefusalCode.DENY_HOST,
                "11 characters",
                "allowedHosts");
        assertQuotesNot(
                Policy.check(c, autonomous(), quiet().withBrowser(Optional.of("example.com")), click(OK_BUTTON)),
                "example");
        assertTrue(Policy.check(c, autonomous(), quiet().withBrowser(Optional.of("docs.example.org")), click(OK_BUTTON))
                .allowed());
    }

    @Test
    void deniedBeatsAllowed() {
        PolicyConfig c = auto().withAllowedHosts(Set.of("example.org")).withDeniedHosts(Set.of("pay.example.org"));
        assertRefused(
                Policy.check(c, autonomous(), quiet().withBrowser(Optional.of("pay.example.org")), click(OK_BUTTON)),
                RefusalCode.DENY_HOST,
                "deniedHosts");
    }

    // ---- OUT_OF_SCOPE ----

    @Test
    void otherWindowOutOfScopeNamingIt() {
        ProposedAction a = ProposedAction.on(ActionKind.CLICK, REV, OTHER, OK_BUTTON);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), a), RefusalCode.OUT_OF_SCOPE, "0x300", "gedit", "0x100");
    }

    @Test
    void siblingWindowOfSameAppIsOutOfScopeForAWindowGrantButInScopeForAnAppGrant() {
        ProposedAction a = ProposedAction.on(ActionKind.CLICK, REV, TARGET_SIBLING, OK_BUTTON);
        assertRefused(Policy.check(auto(), autonomous(), quiet(), a), RefusalCode.OUT_OF_SCOPE, "0x400");
        Grant app = grant(ScopeKind.APP, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of());
        assertTrue(Policy.check(auto(), app, quiet(), a).allowed());
    }

    @Test
    void otherAppOutOfScopeForAnAppGrantNamingTheApp() {
        Grant app = grant(ScopeKind.APP, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of());
        ProposedAction a = ProposedAction.on(ActionKind.CLICK, REV, OTHER, OK_BUTTON);
        assertRefused(Policy.check(auto(), app, quiet(), a), RefusalCode.OUT_OF_SCOPE, "gedit", "mousepad");
    }

    @Test
    void windowNotOnScreenOutOfScope() {
        ProposedAction a = ProposedAction.on(ActionKind.CLICK, REV, 0x999, OK_BUTTON);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), a), RefusalCode.OUT_OF_SCOPE, "0x999", "not on screen");
    }

    // ---- BASIS_STALE ----

    @Test
    void actionDecidedUnderOlderRevisionIsStale() {
        ProposedAction a = ProposedAction.on(ActionKind.CLICK, REV - 1, TARGET, OK_BUTTON);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), a), RefusalCode.BASIS_STALE, "revision 6", "revision 7");
    }

    @Test
    void clickAtWithMatchingBasisIsAllowed() {
        Facts f = quiet().withMeasuredBasis(Optional.of(basis()));
        assertTrue(Policy.check(auto(), autonomous(), f, ProposedAction.clickAt(REV, TARGET, basis(), OK_BUTTON))
                .allowed());
        // a point where the tree shows no element is blind input (BlindInputTest), and where the person allowed it,
        // judged unidentified: consequential unless named
        assertRefused(
                Policy.check(auto(), autonomous(), f, ProposedAction.clickAt(REV, TARGET, basis(), null)),
                RefusalCode.OUT_OF_SCOPE,
                "blind input");
        Grant blind = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of(), true);
        assertRefused(
                Policy.check(auto(), blind, f, ProposedAction.clickAt(REV, TARGET, basis(), null)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "unidentified");
        Grant named = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("unidentified"), true);
        assertTrue(Policy.check(auto(), named, f, ProposedAction.clickAt(REV, TARGET, basis(), null))
                .allowed());
    }

    @Test
    void clickAtBasisDifferencesAreStaleNamingTheField() {
        ProposedAction a = ProposedAction.clickAt(REV, TARGET, basis(), null);
        BasisInfo b = basis();
        assertRefused(
                Policy.check(
                        auto(),
                        autonomous(),
                        quiet().withMeasuredBasis(Optional.of(new BasisInfo(REV, 0x101, 10, 20, 800, 600, 0.5))),
                        a),
                RefusalCode.BASIS_STALE,
                "window");
        assertRefused(
                Policy.check(
                        auto(),
                        autonomous(),
                        quiet().withMeasuredBasis(Optional.of(new BasisInfo(REV, TARGET, 11, 20, 800, 600, 0.5))),
                        a),
                RefusalCode.BASIS_STALE,
                "geometry",
                "800x600+10+20",
                "800x600+11+20");
        assertRefused(
                Policy.check(
                        auto(),
                        autonomous(),
                        quiet().withMeasuredBasis(Optional.of(new BasisInfo(REV, TARGET, 10, 20, 801, 600, 0.5))),
                        a),
                RefusalCode.BASIS_STALE,
                "geometry");
        assertRefused(
                Policy.check(
                        auto(),
                        autonomous(),
                        quiet().withMeasuredBasis(Optional.of(new BasisInfo(REV, TARGET, 10, 20, 800, 600, 1.0))),
                        a),
                RefusalCode.BASIS_STALE,
                "scale");
        assertRefused(
                Policy.check(
                        auto(),
                        autonomous(),
                        quiet().withMeasuredBasis(Optional.of(new BasisInfo(REV + 1, TARGET, 10, 20, 800, 600, 0.5))),
                        a),
                RefusalCode.BASIS_STALE,
                "grant revision");
        assertEquals(b, basis());
    }

    @Test
    void clickAtBasisOfOlderRevisionIsStale() {
        BasisInfo old = new BasisInfo(REV - 2, TARGET, 10, 20, 800, 600, 0.5);
        ProposedAction a = ProposedAction.clickAt(REV, TARGET, old, null);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet().withMeasuredBasis(Optional.of(basis())), a),
                RefusalCode.BASIS_STALE,
                "revision 5");
    }

    @Test
    void clickAtWithoutBasisOrMeasurementOrPixelsIsStale() {
        ProposedAction noBasis = ProposedAction.bare(ActionKind.CLICK_AT, REV, TARGET);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet().withMeasuredBasis(Optional.of(basis())), noBasis),
                RefusalCode.BASIS_STALE,
                "no capture basis");
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), ProposedAction.clickAt(REV, TARGET, basis(), null)),
                RefusalCode.BASIS_STALE,
                "re-measure");
        Grant a11y = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.A11Y_ONLY, Set.of());
        assertRefused(
                Policy.check(
                        auto(),
                        a11y,
                        quiet().withMeasuredBasis(Optional.of(basis())),
                        ProposedAction.clickAt(REV, TARGET, basis(), null)),
                RefusalCode.BASIS_STALE,
                "a11y_only");
    }

    // ---- CONSEQUENTIAL_NOT_NAMED ----

    @Test
    void unnamedConsequentialClickRefusedOnAutonomousGrantNamingTheElement() {
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), click(SEND_BUTTON)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "push button (name of 4 characters)",
                "send");
        assertQuotesNot(Policy.check(auto(), autonomous(), quiet(), click(SEND_BUTTON)), "Send");
    }

    @Test
    void everyGatedWordFiresCaseInsensitively() {
        for (String w : ConsequentialWords.BUILTIN.keySet()) {
            ProposedAction.Element e =
                    new ProposedAction.Element("push button", w.toUpperCase(Locale.ROOT) + " now", false, false);
            assertRefused(
                    Policy.check(auto(), autonomous(), quiet(), click(e)),
                    RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                    "(name of " + (w.length() + 4) + " characters)");
            assertQuotesNot(Policy.check(auto(), autonomous(), quiet(), click(e)), w.toUpperCase(Locale.ROOT));
        }
        ProposedAction.Element resend = new ProposedAction.Element("push button", "Resend code", false, false);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), click(resend)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "(name of 11 characters)",
                "(send)");
        assertQuotesNot(Policy.check(auto(), autonomous(), quiet(), click(resend)), "Resend");
        ProposedAction.Element sender = new ProposedAction.Element("push button", "Sender name", false, false);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), click(sender)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "(send)");
        ProposedAction.Element deleted = new ProposedAction.Element("push button", "Deleted Items", false, false);
        assertTrue(
                Policy.check(auto(), autonomous(), quiet(), click(deleted)).allowed(),
                "a past participle names a state");
    }

    /** The buttons an outside reviewer clicked with nothing named; each gates now, "Withdrawal history" does not. */
    @Test
    void theReviewersButtonsGate() {
        for (String label : java.util.List.of(
                "Withdraw all", "Forward", "Approve", "Reply", "Upload", "Accept", "Donate", "Overwrite", "Share")) {
            ProposedAction.Element e = new ProposedAction.Element("push button", label, false, false);
            assertRefused(Policy.check(auto(), autonomous(), quiet(), click(e)), RefusalCode.CONSEQUENTIAL_NOT_NAMED);
        }
    }

    /**
     * The second reviewer's labels the list lacked (docs/security.md): each now gates in its category, in the
     * forms a button shows it; and the words weighed against the corpus and left out still let ordinary labels through
     * (a calculator's Clear, a sheet's Merge Cells, an address book, Format Cells, Reset Zoom).
     */
    @Test
    void theSecondReviewersButtonsGateAndTheWeighedWordsDoNot() {
        Map<String, String> gate = Map.ofEntries(
                Map.entry("Proceed to payment", "pay"),
                Map.entry("Subscribe", "buy"),
                Map.entry("Clear history", "delete"),
                Map.entry("Invite", "send"),
                Map.entry("Don't Save", "delete"),
                Map.entry("Don\u2019t Save", "delete"),
                Map.entry("Enable Macros", "allow"),
                Map.entry("Push", "publish"),
                Map.entry("Commit", "submit"),
                Map.entry("Run", "run"),
                Map.entry("Keep anyway", "allow"),
                Map.entry("Book now", "buy"),
                Map.entry("Cash out", "pay"),
                Map.entry("Format disk", "delete"),
                Map.entry("Reset all", "delete"),
                Map.entry("Log out", "logout"),
                Map.entry("Sign out", "logout"),
                Map.entry("Logout", "logout"),
                Map.entry("Close without Saving", "delete"),
                Map.entry("Execute", "run"),
                Map.entry("Unsubscribe", "buy"),
                Map.entry("Pushing", "publish"),
                Map.entry("Payments", "pay"),
                Map.entry("Enable content", "allow"),
                Map.entry("Factory reset", "delete"));
        ConsequentialWords words = ConsequentialWords.defaults();
        gate.forEach((label, category) -> {
            for (String shown : List.of(label, label.toUpperCase(java.util.Locale.ROOT), "_" + label, label + "…")) {
                assertTrue(words.categoriesIn(shown).contains(category), shown + " → " + category);
                assertRefused(
                        Policy.check(
                                auto(),
                                autonomous(),
                                quiet(),
                                click(new ProposedAction.Element("push button", shown, false, false))),
                        RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                        category);
            }
        });
        for (String label : List.of(
                "Clear",
                "Clear display",
                "Merge Cells",
                "Mail Merge",
                "Address Book",
                "Format Cells",
                "Number Format",
                "Reset Zoom",
                "Reset",
                "Proceed",
                "Continue",
                "Book",
                "Running",
                "Formatting")) {
            assertEquals(Set.of(), words.categoriesIn(label), label);
        }
        // Proceed and Continue gate where OK does: in a dialog about a gated action.
        ProposedAction.WindowContext deleting =
                new ProposedAction.WindowContext(true, "Delete 3 files?", Optional.empty());
        for (String label : List.of("Proceed", "Continue")) {
            assertRefused(
                    Policy.check(
                            auto(),
                            autonomous(),
                            quiet(),
                            click(new ProposedAction.Element("push button", label, false, false))
                                    .withContext(deleting)),
                    RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                    "delete");
        }
    }

    @Test
    void namedWordOrExactElementLetsItThrough() {
        Grant byWord = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("Send"));
        assertTrue(Policy.check(auto(), byWord, quiet(), click(SEND_BUTTON)).allowed());
        Grant exact = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("push button:Send"));
        assertTrue(Policy.check(auto(), exact, quiet(), click(SEND_BUTTON)).allowed());
        ProposedAction.Element sendAll = new ProposedAction.Element("push button", "Send all", false, false);
        assertRefused(
                Policy.check(auto(), exact, quiet(), click(sendAll)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "push button (name of 8 characters)");
        ProposedAction.Element deleteAndSend =
                new ProposedAction.Element("push button", "Delete and send", false, false);
        assertRefused(
                Policy.check(auto(), byWord, quiet(), click(deleteAndSend)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "delete");
    }

    @Test
    void enterInComposeFieldIsConsequential() {
        for (String chord :
                List.of("Enter", "Return", "return", "ctrl+Enter", "ctrl+Return", "KP_Enter", "alt+Enter")) {
            ProposedAction a = ProposedAction.key(chord, REV, TARGET, COMPOSE);
            assertRefused(
                    Policy.check(auto(), autonomous(), quiet(), a),
                    RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                    "compose field text (name of 12 characters)");
            assertQuotesNot(Policy.check(auto(), autonomous(), quiet(), a), "Message");
        }
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), ProposedAction.key("shift+Enter", REV, TARGET, COMPOSE)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "compose field");
        Grant chordNamed =
                grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("key:Ctrl+Return"));
        assertTrue(Policy.check(auto(), chordNamed, quiet(), ProposedAction.key("ctrl+Enter", REV, TARGET, COMPOSE))
                .allowed());
        assertRefused(
                Policy.check(auto(), chordNamed, quiet(), ProposedAction.key("Enter", REV, TARGET, COMPOSE)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "key Enter");
    }

    /** A single-line entry submits on Enter (a search, a chat line): send, unless a default button takes it. */
    @Test
    void enterInASingleLineEntryIsSendUnlessTheWindowShowsADefaultButton() {
        for (String chord : List.of("Enter", "Return", "KP_Enter", "ctrl+Enter", "shift+Return")) {
            PolicyDecision d =
                    Policy.check(auto(), autonomous(), quiet(), ProposedAction.key(chord, REV, TARGET, LINE));
            assertRefused(d, RefusalCode.CONSEQUENTIAL_NOT_NAMED, "single-line entry text (name of 6 characters)");
            assertRefused(d, RefusalCode.CONSEQUENTIAL_NOT_NAMED, "(send)");
            assertQuotesNot(d, "Search");
        }
        Grant sendNamed = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("send"));
        assertTrue(Policy.check(auto(), sendNamed, quiet(), ProposedAction.key("Enter", REV, TARGET, LINE))
                .allowed());
        // a dialog's default button takes Enter: judged as that button
        ProposedAction.WindowContext open = new ProposedAction.WindowContext(
                true,
                "Open File",
                java.util.Optional.of(new ProposedAction.Element("push button", "Open", false, false, false)));
        assertTrue(Policy.check(
                        auto(),
                        autonomous(),
                        quiet(),
                        ProposedAction.key("Enter", REV, TARGET, LINE).withContext(open))
                .allowed());
        ProposedAction.WindowContext delete = new ProposedAction.WindowContext(
                true,
                "Remove",
                java.util.Optional.of(new ProposedAction.Element("push button", "Delete", false, false, false)));
        assertRefused(
                Policy.check(
                        auto(),
                        autonomous(),
                        quiet(),
                        ProposedAction.key("Enter", REV, TARGET, LINE).withContext(delete)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "delete");
        // an office paragraph breaks the line; a spin button commits its value: neither submits
        ProposedAction.Element paragraph = new ProposedAction.Element("paragraph", "Body", false, false, true);
        assertTrue(Policy.check(auto(), autonomous(), quiet(), ProposedAction.key("Enter", REV, TARGET, paragraph))
                .allowed());
        ProposedAction.Element spin = new ProposedAction.Element("spin button", "Size", false, false, true);
        assertTrue(Policy.check(auto(), autonomous(), quiet(), ProposedAction.key("Enter", REV, TARGET, spin))
                .allowed());
    }

    @Test
    void enterWithTheFocusedElementUnknownFailsClosed() {
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), ProposedAction.key("Return", REV, TARGET, null)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "focused element unknown");
        // a focus that cannot be read may be a terminal, where any ctrl chord may run the line
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), ProposedAction.key("ctrl+s", REV, TARGET, null)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "(send)");
        assertTrue(Policy.check(auto(), autonomous(), quiet(), ProposedAction.key("ctrl+s", REV, TARGET, LINE))
                .allowed());
    }

    /** Under the C locale xterm's 8-bit Meta read {@code type "±£"} as Meta-1 Meta-#, which ran the line. */
    @Test
    void typingBeyondAsciiIntoATerminalOrAnUnknownFocusIsSend() {
        ProposedAction.Element terminal = new ProposedAction.Element("terminal", "", false, false, true);
        for (ProposedAction.Element focus : java.util.Arrays.asList(terminal, null)) {
            for (String text : List.of("±£", "naïve", "tab\there", "line\n")) {
                assertRefused(
                        Policy.check(auto(), autonomous(), quiet(), ProposedAction.type(REV, TARGET, focus, text)),
                        RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                        "outside printable ASCII",
                        "(send)");
            }
            assertTrue(
                    Policy.check(auto(), autonomous(), quiet(), ProposedAction.type(REV, TARGET, focus, "ls -la ~/x_1"))
                            .allowed());
        }
        Grant sendNamed = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("send"));
        assertTrue(Policy.check(auto(), sendNamed, quiet(), ProposedAction.type(REV, TARGET, terminal, "±£"))
                .allowed());
        // a text field takes any letter
        assertTrue(Policy.check(auto(), autonomous(), quiet(), ProposedAction.type(REV, TARGET, COMPOSE, "±£ naïve"))
                .allowed());
    }

    /**
     * Round 4 of the review (T1): with the person in a granted xterm running vim, {@code type "ggdGZZ"} emptied and
     * saved their file with nothing named. While a program other than a shell at its prompt reads the terminal's
     * keys, every key and typed text there is {@code send}; at a shell's prompt letters stay text, and a text field
     * of a window whose terminal runs a program takes them too.
     */
    @Test
    void keysAndTextAreSendWhileAProgramOtherThanAShellReadsTheTerminal() {
        ProposedAction.Element terminal = new ProposedAction.Element("terminal", "", false, false, true);
        for (ProposedAction.Element focus : java.util.Arrays.asList(terminal, null)) {
            ProposedAction atPrompt = ProposedAction.type(REV, TARGET, focus, "ggdGZZ");
            ProposedAction inVim = atPrompt.withContext(atPrompt.context().withProgramReadsKeys(true));
            assertTrue(Policy.check(auto(), autonomous(), quiet(), atPrompt).allowed());
            assertRefused(
                    Policy.check(auto(), autonomous(), quiet(), inVim),
                    RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                    "typing",
                    "a program other than a shell at its prompt reads the terminal's keys",
                    "(send)");
            for (String keys : List.of("d", "shift+z", "x")) {
                ProposedAction key = ProposedAction.key(keys, REV, TARGET, focus);
                assertTrue(Policy.check(auto(), autonomous(), quiet(), key).allowed(), keys + " at a prompt");
                assertRefused(
                        Policy.check(
                                auto(),
                                autonomous(),
                                quiet(),
                                key.withContext(key.context().withProgramReadsKeys(true))),
                        RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                        "key " + Chord.parseLenient(keys),
                        "(send)");
            }
            Grant sendNamed = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("send"));
            assertTrue(Policy.check(auto(), sendNamed, quiet(), inVim).allowed());
        }
        ProposedAction intoField = ProposedAction.type(REV, TARGET, COMPOSE, "ggdGZZ");
        assertTrue(Policy.check(
                        auto(),
                        autonomous(),
                        quiet(),
                        intoField.withContext(intoField.context().withProgramReadsKeys(true)))
                .allowed());
    }

    @Test
    void typingIntoAFieldIsNotConsequentialButTypingIntoAGatedButtonIs() {
        ProposedAction intoField = ProposedAction.on(ActionKind.TYPE, REV, TARGET, COMPOSE);
        assertTrue(Policy.check(auto(), autonomous(), quiet(), intoField).allowed());
        ProposedAction intoButton = ProposedAction.on(ActionKind.TYPE, REV, TARGET, SEND_BUTTON);
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), intoButton),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "typing into push button (name of 4 characters)");
    }

    @Test
    void enterOnAFocusedSendButtonIsConsequential() {
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), ProposedAction.key("Return", REV, TARGET, SEND_BUTTON)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "push button (name of 4 characters)",
                "send");
        assertRefused(
                Policy.check(auto(), autonomous(), quiet(), ProposedAction.key("space", REV, TARGET, SEND_BUTTON)),
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                "push button (name of 4 characters)",
                "send");
        assertTrue(Policy.check(auto(), autonomous(), quiet(), ProposedAction.key("Tab", REV, TARGET, SEND_BUTTON))
                .allowed());
    }

    @Test
    void consequentialOnConfirmEachRaisesACardThatNamesIt() {
        PolicyDecision d = Policy.check(auto(), confirmEach(), quiet(), click(SEND_BUTTON));
        PolicyDecision.NeedsApproval n = assertInstanceOf(PolicyDecision.NeedsApproval.class, d);
        assertTrue(
                n.consequential().orElseThrow().contains("push button (name of 4 characters) (send)"),
                n.consequential().orElseThrow());
        assertTrue(
                Policy.check(auto(), confirmEach(), quiet(), click(SEND_BUTTON).withApproved(true))
                        .allowed());
    }

    // ---- confirm-each and modes ----

    @Test
    void confirmEachNeedsApprovalForInputOnly() {
        PolicyDecision d = Policy.check(auto(), confirmEach(), quiet(), click(OK_BUTTON));
        PolicyDecision.NeedsApproval n = assertInstanceOf(PolicyDecision.NeedsApproval.class, d);
        assertTrue(n.consequential().isEmpty());
        assertTrue(Policy.check(auto(), confirmEach(), quiet(), click(OK_BUTTON).withApproved(true))
                .allowed());
        ProposedAction done = ProposedAction.bare(ActionKind.DONE, REV, TARGET);
        assertTrue(Policy.check(auto(), confirmEach(), quiet(), done).allowed());
    }

    @Test
    void autonomousGrantFallsBackToConfirmEachWhenTheModeIsNowAsk() {
        PolicyConfig ask = PolicyConfig.defaults();
        assertEquals(InputPolicy.CONFIRM_EACH, Policy.effectiveInputPolicy(ask, autonomous()));
        assertInstanceOf(
                PolicyDecision.NeedsApproval.class, Policy.check(ask, autonomous(), quiet(), click(OK_BUTTON)));
        assertEquals(
                InputPolicy.AUTONOMOUS,
                Policy.effectiveInputPolicy(ask.withPermissionMode(PermissionMode.ACCEPT_EDITS), autonomous()));
    }

    @Test
    void planAndGoalModesRefusedBeforeAnythingElse() {
        assertEquals(Optional.empty(), Policy.checkCallMode(null));
        assertEquals(Optional.empty(), Policy.checkCallMode("default"));
        for (String m : List.of("plan", "goal", "PLAN")) {
            Refusal r = Policy.checkCallMode(m).orElseThrow();
            assertEquals(RefusalCode.MODE_DENIED, r.code());
            assertTrue(r.detail().contains(m.toLowerCase(Locale.ROOT)), r.detail());
        }
        Refusal unknown = Policy.checkCallMode("yolo").orElseThrow();
        assertEquals(RefusalCode.MODE_DENIED, unknown.code());
        assertTrue(unknown.detail().contains("yolo"));
    }

    // ---- order ----

    @Test
    void stagesFireInTheFixedOrder() {
        Facts everything = quiet().withPasswordFocused(true)
                .withRunningApps(Set.of("keepassxc"))
                .withBrowser(Optional.empty());
        ProposedAction outOfScopeStaleSend = ProposedAction.on(ActionKind.CLICK, REV - 1, OTHER, SEND_BUTTON);
        assertEquals(
                RefusalCode.SECURE_INPUT,
                refused(Policy.check(auto(), autonomous(), everything, outOfScopeStaleSend))
                        .code());
        Facts f = everything.withPasswordFocused(false);
        assertEquals(
                RefusalCode.DENY_CREDENTIAL_APP,
                refused(Policy.check(auto(), autonomous(), f, outOfScopeStaleSend))
                        .code());
        f = f.withRunningApps(Set.of());
        assertEquals(
                RefusalCode.DENY_HOST,
                refused(Policy.check(auto(), autonomous(), f, outOfScopeStaleSend))
                        .code());
        f = quiet();
        assertEquals(
                RefusalCode.OUT_OF_SCOPE,
                refused(Policy.check(auto(), autonomous(), f, outOfScopeStaleSend))
                        .code());
        ProposedAction staleSend = ProposedAction.on(ActionKind.CLICK, REV - 1, TARGET, SEND_BUTTON);
        assertEquals(
                RefusalCode.BASIS_STALE,
                refused(Policy.check(auto(), autonomous(), f, staleSend)).code());
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                refused(Policy.check(auto(), autonomous(), f, click(SEND_BUTTON)))
                        .code());
        List<Facts.WindowFact> ws = new ArrayList<>(quiet().windows());
        ws.add(new Facts.WindowFact(0x500, "discord", "chat", false, true));
        ProposedAction own = ProposedAction.on(ActionKind.CLICK, REV, OWN_PAGE, OK_BUTTON);
        assertEquals(
                RefusalCode.OWN_WINDOW,
                refused(Policy.check(
                                auto(), autonomous(), quiet().withWindows(ws).withKeyboardGrabbed(true), own))
                        .code());
        assertEquals(
                RefusalCode.DENY_COMMS_VISIBLE,
                refused(Policy.check(auto(), autonomous(), quiet().withWindows(ws), click(OK_BUTTON)))
                        .code());
    }

    // ---- grantable / beforeCapture ----

    @Test
    void grantableNamesTheRefusalEachWindowWouldGet() {
        PolicyConfig c = PolicyConfig.defaults();
        List<Facts.WindowFact> ws = new ArrayList<>(quiet().windows());
        ws.add(new Facts.WindowFact(0x600, "KeePassXC", "vault", false, false));
        ws.add(new Facts.WindowFact(0x700, "Thunderbird", "inbox", false, false));
        Facts f = quiet().withWindows(ws);
        assertEquals(Optional.empty(), Policy.grantable(c, f, TARGET));
        Refusal own = Policy.grantable(c, f, OWN_PAGE).orElseThrow();
        assertEquals(RefusalCode.OWN_WINDOW, own.code());
        Refusal cred = Policy.grantable(c, f, 0x600).orElseThrow();
        assertEquals(RefusalCode.DENY_CREDENTIAL_APP, cred.code());
        assertTrue(cred.detail().contains("keepassxc"));
        Refusal comms = Policy.grantable(c, f, 0x700).orElseThrow();
        assertEquals(RefusalCode.DENY_COMMS_VISIBLE, comms.code());
        assertTrue(comms.detail().contains("thunderbird"));
        assertEquals(
                RefusalCode.OUT_OF_SCOPE,
                Policy.grantable(c, f, 0x999).orElseThrow().code());
    }

    @Test
    void beforeCaptureRefusesOwnDeniedOutOfScopeAndPixelsOnA11yOnly() {
        PolicyConfig c = auto();
        assertEquals(Optional.empty(), Policy.beforeCapture(c, autonomous(), quiet(), TARGET, true));
        assertEquals(
                RefusalCode.OWN_WINDOW,
                Policy.beforeCapture(c, autonomous(), quiet(), OWN_PAGE, false)
                        .orElseThrow()
                        .code());
        assertEquals(
                RefusalCode.DENY_CREDENTIAL_APP,
                Policy.beforeCapture(c, autonomous(), quiet().withRunningApps(Set.of("bitwarden")), TARGET, false)
                        .orElseThrow()
                        .code());
        assertEquals(
                RefusalCode.OUT_OF_SCOPE,
                Policy.beforeCapture(c, autonomous(), quiet(), OTHER, false)
                        .orElseThrow()
                        .code());
        Grant a11y = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.A11Y_ONLY, Set.of());
        Refusal px = Policy.beforeCapture(c, a11y, quiet(), TARGET, true).orElseThrow();
        assertEquals(RefusalCode.OUT_OF_SCOPE, px.code());
        assertTrue(px.detail().contains("a11y_only"));
        assertEquals(Optional.empty(), Policy.beforeCapture(c, a11y, quiet(), TARGET, false));
    }

    @Test
    void policyDecisionCasesAreAllKnown() {
        // a new case must be added to describe() and to the loop's dispatch
        for (Class<?> c : PolicyDecision.class.getPermittedSubclasses()) {
            assertTrue(
                    Set.of(PolicyDecision.Allow.class, PolicyDecision.NeedsApproval.class, PolicyDecision.Refuse.class)
                            .contains(c),
                    "unknown PolicyDecision case " + c);
        }
        assertEquals(3, PolicyDecision.class.getPermittedSubclasses().length);
        assertEquals("allow", describe(new PolicyDecision.Allow()));
        assertEquals("approval", describe(new PolicyDecision.NeedsApproval("x", Optional.empty())));
        assertEquals("refuse", describe(new PolicyDecision.Refuse(Refusal.of(RefusalCode.STOPPED, "x"))));
    }

    static String describe(PolicyDecision d) {
        if (d instanceof PolicyDecision.Allow) {
            return "allow";
        } else if (d instanceof PolicyDecision.NeedsApproval) {
            return "approval";
        } else if (d instanceof PolicyDecision.Refuse) {
            return "refuse";
        }
        throw new AssertionError(d);
    }
}
