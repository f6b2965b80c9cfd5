package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which accessibility events make the kept policy facts be read again ({@code KeptFacts}). */
@Tag("pure")
class FactEventsTest {

    @Test
    void focusActivationVisibilityRoleNameAndStructureChangesCount() {
        for (String type : List.of(
                "object:state-changed:focused",
                "object:state-changed:active",
                "object:state-changed:showing",
                "object:state-changed:visible",
                "object:state-changed:defunct",
                "object:state-changed:enabled",
                "object:state-changed:sensitive",
                "object:state-changed:editable",
                "object:children-changed:add",
                "object:children-changed:remove",
                "object:children-changed",
                "object:property-change:accessible-role",
                "object:property-change:accessible-name",
                "object:property-change:accessible-parent",
                "object:property-change",
                "window:activate",
                "document:load-complete")) {
            assertTrue(AtspiBus.changesFacts(type), type + " can change the focus, the apps or the browser host");
        }
    }

    @Test
    void textValueAndTheStatesAnActionTogglesDoNot() {
        for (String type : List.of(
                "object:text-changed:insert",
                "object:text-changed:delete",
                "object:value-changed",
                "object:visible-data-changed",
                "object:property-change:accessible-value",
                "object:property-change:accessible-description",
                "object:state-changed:checked",
                "object:state-changed:pressed",
                "object:state-changed:armed",
                "object:state-changed:selected",
                "object:state-changed:expanded",
                "object:state-changed:busy")) {
            assertFalse(AtspiBus.changesFacts(type), type + " leaves the kept facts standing");
        }
    }
}
