package dev.deckhand.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * deploy/kubernetes against the Kubernetes API schema — the fabric8 model classes, read strictly: a field
 * the API does not have, or a value of the wrong type, fails — and against Deckhand: the Indexed Job's N
 * agrees in its three places, its arguments are ones {@code deckhand eval} accepts, the model's key comes
 * from the Secret, the merge names exactly the N shard folders, and the pods run as the image's user with
 * a read-only root.
 */
@Tag("pure")
class KubernetesManifestsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DIR = ROOT.resolve("deploy/kubernetes");

    /** The API objects the manifests may hold, by {@code apiVersion kind}. */
    private static final Map<String, Class<?>> KINDS =
            Map.of("batch/v1 Job", Job.class, "v1 PersistentVolumeClaim", PersistentVolumeClaim.class);

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** Strict: no scalar coercion ("3" is not 3), no case folding, unknown fields caught by {@link #unknownFields}. */
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(
                    DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
                    DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES,
                    DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .disable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES, MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfigDefaults(c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .build();

    /** Reads every document of {@code yaml} as its API object; any problem is an AssertionError naming the field. */
    static List<Object> read(String name, String yaml) throws Exception {
        List<Object> out = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(yaml)) {
            var docs = YAML.readValues(parser, JsonNode.class);
            int n = 0;
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                n++;
                if (doc == null || doc.isMissingNode() || doc.isNull()) continue;
                String kind =
                        doc.path("apiVersion").asText() + " " + doc.path("kind").asText();
                Class<?> type = KINDS.get(kind);
                if (type == null)
                    throw new AssertionError(
                            name + " #" + n + ": unexpected object '" + kind + "' (known: " + KINDS.keySet() + ")");
                Object object;
                try {
                    object = STRICT.treeToValue(doc, type);
                } catch (com.fasterxml.jackson.databind.JsonMappingException e) {
                    String at = e.getPath().stream()
                            .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                            .collect(Collectors.joining("."))
                            .replace(".[", "[");
                    throw new AssertionError(
                            name + " #" + n + ": " + kind + "." + at + ": " + e.getOriginalMessage(), e);
                }
                List<String> unknown = new ArrayList<>();
                unknownFields(object, kind, unknown, new IdentityHashMap<>());
                if (!unknown.isEmpty())
                    throw new AssertionError(name + " #" + n + ": fields the Kubernetes API does not have: " + unknown);
                out.add(object);
            }
        }
        return out;
    }

    /**
     * fabric8's model keeps a field it does not know in {@code additionalProperties} instead of failing; every
     * such field anywhere in the object is one the API does not have.
     */
    private static void unknownFields(Object o, String path, List<String> found, Map<Object, Boolean> seen)
            throws Exception {
        if (o == null || seen.put(o, Boolean.TRUE) != null) return;
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object e : c) unknownFields(e, path + "[" + i++ + "]", found, seen);
            return;
        }
        if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) unknownFields(e.getValue(), path + "." + e.getKey(), found, seen);
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.")) return;
        for (Method g : o.getClass().getMethods()) {
            if (g.getParameterCount() != 0
                    || Modifier.isStatic(g.getModifiers())
                    || !g.getName().startsWith("get")
                    || g.getDeclaringClass() == Object.class) {
                continue;
            }
            Object v = g.invoke(o);
            String field =
                    Character.toLowerCase(g.getName().charAt(3)) + g.getName().substring(4);
            if (g.getName().equals("getAdditionalProperties")) {
                if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    for (Object k : extra.keySet()) found.add(path + "." + k);
                }
            } else {
                unknownFields(v, path + "." + field, found, seen);
            }
        }
    }

    static Map<String, List<Object>> manifests() throws Exception {
        Map<String, List<Object>> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                assertTrue(name.endsWith(".yaml"), "only YAML manifests in deploy/kubernetes: " + name);
                out.put(name, read(name, Files.readString(f)));
            }
        }
        return out;
    }

    private static Job job(String file) throws Exception {
        List<Object> objects = manifests().get(file);
        assertEquals(1, objects.size(), file);
        return (Job) objects.get(0);
    }

    @Test
    void everyManifestIsReadStrictlyAsItsKubernetesObject() throws Exception {
        Map<String, List<Object>> all = manifests();
        assertEquals(Set.of("eval-job.yaml", "merge-job.yaml", "reports-pvc.yaml"), all.keySet());
        assertTrue(all.values().stream().allMatch(l -> !l.isEmpty()));
    }

    @Test
    void theStrictReadingFailsOnAFieldTheApiDoesNotHaveOrAValueOfTheWrongType() throws Exception {
        String job = Files.readString(DIR.resolve("eval-job.yaml"));
        for (String[] edit : new String[][] {
            {"  completions: 3\n", "  completion: 3\n", "spec.completion"},
            {"  completionMode: Indexed\n", "  completionMode: Indexed\n  shards: 3\n", "spec.shards"},
            {
                "      restartPolicy: Never\n",
                "      restartPolicy: Never\n      runAsRoot: false\n",
                "spec.template.spec.runAsRoot"
            },
            {
                "          imagePullPolicy: IfNotPresent\n",
                "          imagePullPolicy: IfNotPresent\n          imagePull: Always\n",
                "containers[0].imagePull"
            },
            {
                "              drop: [ALL]\n",
                "              drop: [ALL]\n              dropAll: true\n",
                "capabilities.dropAll"
            },
            {"  parallelism: 3\n", "  parallelism: \"3\"\n", "parallelism"},
            {"  backoffLimitPerIndex: 1\n", "  backoffLimitPerIndex: one\n", "backoffLimitPerIndex"},
            {
                "            readOnlyRootFilesystem: true\n",
                "            readOnlyRootFilesystem: \"yes\"\n",
                "readOnlyRootFilesystem"
            },
        }) {
            assertTrue(job.contains(edit[0]), edit[0]);
            AssertionError e =
                    assertThrows(AssertionError.class, () -> read("edited", job.replace(edit[0], edit[1])), edit[1]);
            assertTrue(e.getMessage().contains(edit[2]), () -> "wanted " + edit[2] + " in: " + e.getMessage());
        }
        assertThrows(AssertionError.class, () -> read("edited", "apiVersion: batch/v2\nkind: Job\n"));
        assertEquals(1, read("original", job).size(), "the original reads");
    }

    @Test
    void theIndexedJobRunsShardIOfNWithItsCompletionIndexAndTheSecretsKey() throws Exception {
        Job job = job("eval-job.yaml");
        assertEquals("Indexed", job.getSpec().getCompletionMode());
        int n = job.getSpec().getCompletions();
        assertEquals(n, job.getSpec().getParallelism(), "one pod per shard at once");
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        assertEquals("Never", pod.getRestartPolicy(), "a pod failure policy needs restartPolicy Never");
        Container c = single(pod.getContainers());
        assertEquals("localhost/deckhand:latest", c.getImage(), "the tag scripts/image.sh builds");

        Map<String, EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
        assertEquals(
                "metadata.annotations['batch.kubernetes.io/job-completion-index']",
                env.get("SHARD_INDEX").getValueFrom().getFieldRef().getFieldPath(),
                "the shard is the completion index");
        assertEquals(
                "metadata.labels['batch.kubernetes.io/job-name']",
                env.get("JOB_NAME").getValueFrom().getFieldRef().getFieldPath());
        List<String> args = c.getArgs();
        assertEquals(
                "$(SHARD_INDEX)/" + n, args.get(args.indexOf("--shard") + 1), "--shard's N is the Job's completions");
        assertReferencesDefined(args, env.keySet());

        // What deckhand eval reads for pod I: the flags are valid, the shard is I/N, the out folder is the pod's own.
        assertEquals("eval", args.get(0));
        for (int i = 0; i < n; i++) {
            List<String> expanded = expand(
                    args.subList(1, args.size()),
                    Map.of(
                            "SHARD_INDEX",
                            Integer.toString(i),
                            "JOB_NAME",
                            job.getMetadata().getName()));
            EvalOptions o = EvalOptions.parse(expanded);
            assertEquals(new Shard(i, n), o.shard().orElseThrow());
            assertEquals(Path.of("/reports/deckhand-eval/shard-" + i), o.out().orElseThrow());
            assertEquals(List.of(Path.of("/opt/deckhand/tasks")), o.tasks(), "the suite the image holds");
            String provider = o.provider().orElseThrow();
            String variable =
                    provider.startsWith("openai") ? "OPENAI_API_KEY" : provider.toUpperCase(Locale.ROOT) + "_API_KEY";
            var secret = env.get(variable).getValueFrom().getSecretKeyRef();
            assertEquals("deckhand-model-key", secret.getName(), "the model's key from the Secret");
            assertEquals(variable, secret.getKey());
        }
        var rule = single(job.getSpec().getPodFailurePolicy().getRules());
        assertEquals("FailIndex", rule.getAction());
        assertEquals(c.getName(), rule.getOnExitCodes().getContainerName());
        assertEquals(
                List.of(EvalCommand.NOTHING_TO_RUN, EvalCommand.USAGE),
                rule.getOnExitCodes().getValues(),
                "a shard that cannot run is not tried again");
    }

    @Test
    void theMergeNamesExactlyTheShardsFoldersOfTheIndexedJob() throws Exception {
        Job eval = job("eval-job.yaml");
        Job merge = job("merge-job.yaml");
        int n = eval.getSpec().getCompletions();
        Container c = single(merge.getSpec().getTemplate().getSpec().getContainers());
        assertEquals(List.of("eval", "merge"), c.getArgs().subList(0, 2));
        EvalMerge.Options o =
                EvalMerge.Options.parse(c.getArgs().subList(2, c.getArgs().size()));
        List<Path> expected = new ArrayList<>();
        for (int i = 0; i < n; i++)
            expected.add(Path.of("/reports/" + eval.getMetadata().getName() + "/shard-" + i));
        assertEquals(expected, o.shards());
        assertEquals(
                eval.getSpec().getTemplate().getSpec().getContainers().get(0).getImage(), c.getImage());
    }

    @Test
    void podsRunAsTheImagesUserWithAReadOnlyRootAndTheirVolumesDeclared() throws Exception {
        Matcher uid =
                Pattern.compile("useradd --uid (\\d+)").matcher(Files.readString(ROOT.resolve("docker/Containerfile")));
        assertTrue(uid.find(), "docker/Containerfile creates its user with a fixed uid");
        Set<String> claims = manifests().get("reports-pvc.yaml").stream()
                .map(p -> ((PersistentVolumeClaim) p).getMetadata().getName())
                .collect(Collectors.toSet());
        for (String file : List.of("eval-job.yaml", "merge-job.yaml")) {
            PodSpec pod = job(file).getSpec().getTemplate().getSpec();
            assertEquals(Boolean.TRUE, pod.getSecurityContext().getRunAsNonRoot(), file);
            assertEquals(
                    Long.valueOf(uid.group(1)), pod.getSecurityContext().getRunAsUser(), file + ": the image's user");
            assertFalse(pod.getAutomountServiceAccountToken(), file + ": no API token in a pod that runs apps");
            Container c = single(pod.getContainers());
            assertEquals(Boolean.TRUE, c.getSecurityContext().getReadOnlyRootFilesystem(), file);
            assertEquals(Boolean.FALSE, c.getSecurityContext().getAllowPrivilegeEscalation(), file);
            assertEquals(
                    List.of("ALL"), c.getSecurityContext().getCapabilities().getDrop(), file);
            Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
            Map<String, String> mounts = c.getVolumeMounts().stream()
                    .collect(Collectors.toMap(VolumeMount::getMountPath, VolumeMount::getName));
            for (String name : mounts.values())
                assertTrue(volumes.containsKey(name), file + ": volume " + name + " is declared");
            assertEquals(
                    Set.of("/reports", "/config", "/tmp"),
                    mounts.keySet(),
                    file + ": the writable places on a read-only root");
            assertTrue(
                    volumes.get(mounts.get("/config")).getEmptyDir() != null,
                    file + ": DECKHAND_HOME is the pod's own");
            assertTrue(
                    claims.contains(volumes.get(mounts.get("/reports"))
                            .getPersistentVolumeClaim()
                            .getClaimName()),
                    file + ": the reports volume is the claim in reports-pvc.yaml");
        }
    }

    private static <T> T single(List<T> list) {
        assertEquals(1, list.size(), list.toString());
        return list.get(0);
    }

    /** Kubernetes leaves an undefined {@code $(VAR)} as it is: every one used must be defined in the container. */
    private static void assertReferencesDefined(List<String> args, Set<String> defined) {
        Matcher m = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)").matcher(String.join(" ", args));
        int refs = 0;
        while (m.find()) {
            refs++;
            assertTrue(defined.contains(m.group(1)), "$(" + m.group(1) + ") is defined in the container's env");
        }
        assertTrue(refs >= 2, "the shard and the out folder come from the pod");
    }

    private static List<String> expand(List<String> args, Map<String, String> env) {
        List<String> out = new ArrayList<>();
        for (String a : args) {
            String s = a;
            for (Map.Entry<String, String> e : env.entrySet()) s = s.replace("$(" + e.getKey() + ")", e.getValue());
            out.add(s);
        }
        return out;
    }
}
