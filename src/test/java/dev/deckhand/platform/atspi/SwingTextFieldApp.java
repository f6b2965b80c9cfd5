package dev.deckhand.platform.atspi;

import java.awt.FlowLayout;
import javax.swing.JButton;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;

/**
 * A tiny Swing window for the AT-SPI tests: a labelled text field and a button. Run in a child JVM
 * with {@code -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper} and
 * {@code /usr/share/java/java-atk-wrapper.jar} on the class path. {@code args[0]} is the title.
 */
public final class SwingTextFieldApp {

    private SwingTextFieldApp() {}

    public static void main(String[] args) {
        String title = args.length > 0 ? args[0] : "Deckhand Swing";
        SwingUtilities.invokeLater(() -> {
            JFrame frame = new JFrame(title);
            frame.setDefaultCloseOperation(JFrame.EXIT_ON_CLOSE);
            frame.setLayout(new FlowLayout());
            JLabel label = new JLabel("Name");
            JTextField field = new JTextField(24);
            field.getAccessibleContext().setAccessibleName("Name");
            label.setLabelFor(field);
            JButton ok = new JButton("OK");
            ok.addActionListener(e -> field.setText("clicked"));
            frame.add(label);
            frame.add(field);
            frame.add(ok);
            frame.setSize(420, 120);
            frame.setLocation(40, 40);
            frame.setVisible(true);
        });
    }
}
