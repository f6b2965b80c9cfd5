package dev.deckhand.model;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.jdk.JdkHttpClient;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * LangChain4j's HTTP port over the JDK client, like {@link JdkHttpClient}, except that an error answer
 * keeps the provider's {@code Retry-After} header ({@link ErrorAnswer#retryAfter()}): LangChain4j's own
 * {@link HttpException} carries only the status and the body, and the retry rule must honour it.
 * Streaming calls (not used by Deckhand) go to {@link JdkHttpClient} unchanged.
 */
final class ProviderHttp implements HttpClient {

    /** The provider answered with an error status; {@code retryAfter} is what its header asked for. */
    static final class ErrorAnswer extends HttpException {
        private final transient Optional<Duration> retryAfter;

        ErrorAnswer(int status, String body, Optional<Duration> retryAfter) {
            super(status, body);
            this.retryAfter = retryAfter;
        }

        Optional<Duration> retryAfter() {
            return retryAfter;
        }
    }

    /** Builds a {@link ProviderHttp} over the given JDK builder. */
    static final class Builder implements HttpClientBuilder {
        private final java.net.http.HttpClient.Builder jdk;
        private Duration connectTimeout;
        private Duration readTimeout;

        Builder(java.net.http.HttpClient.Builder jdk) {
            this.jdk = Objects.requireNonNull(jdk, "jdk");
        }

        @Override
        public Duration connectTimeout() {
            return connectTimeout;
        }

        @Override
        public Builder connectTimeout(Duration d) {
            connectTimeout = d;
            return this;
        }

        @Override
        public Duration readTimeout() {
            return readTimeout;
        }

        @Override
        public Builder readTimeout(Duration d) {
            readTimeout = d;
            return this;
        }

        @Override
        public HttpClient build() {
            if (connectTimeout != null) jdk.connectTimeout(connectTimeout);
            java.net.http.HttpClient client = jdk.build();
            return new ProviderHttp(
                    client,
                    readTimeout,
                    JdkHttpClient.builder()
                            .httpClientBuilder(jdk)
                            .connectTimeout(connectTimeout)
                            .readTimeout(readTimeout)
                            .build());
        }
    }

    private final java.net.http.HttpClient client;
    private final Duration readTimeout;
    private final HttpClient streaming;

    private ProviderHttp(java.net.http.HttpClient client, Duration readTimeout, HttpClient streaming) {
        this.client = client;
        this.readTimeout = readTimeout;
        this.streaming = streaming;
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        if (!request.formDataFields().isEmpty() || !request.formDataFiles().isEmpty()) {
            throw new UnsupportedOperationException("form data is not sent to model providers");
        }
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(URI.create(request.url()));
        if (readTimeout != null) b.timeout(readTimeout);
        request.headers().forEach((name, values) -> values.forEach(v -> b.header(name, v)));
        b.method(
                request.method().name(),
                request.body() == null
                        ? java.net.http.HttpRequest.BodyPublishers.noBody()
                        : java.net.http.HttpRequest.BodyPublishers.ofString(request.body()));
        HttpResponse<byte[]> response;
        try {
            response = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new TimeoutException(e);
        } catch (IOException e) {
            throw new RuntimeException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        }
        String body = new String(response.body(), StandardCharsets.UTF_8);
        if (response.statusCode() < 200 || response.statusCode() >= 300) {
            throw new ErrorAnswer(response.statusCode(), body, retryAfter(response.headers(), Instant.now()));
        }
        return SuccessfulHttpResponse.builder()
                .statusCode(response.statusCode())
                .headers(response.headers().map())
                .body(body)
                .build();
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        streaming.execute(request, parser, listener);
    }

    /** {@code Retry-After} as delay-seconds or an HTTP date (RFC 9110 §10.2.3); empty when absent or unreadable. */
    static Optional<Duration> retryAfter(HttpHeaders headers, Instant now) {
        Optional<String> value = headers.firstValue("retry-after").map(String::strip);
        if (value.isEmpty() || value.get().isEmpty()) return Optional.empty();
        String v = value.get();
        if (v.chars().allMatch(Character::isDigit)) {
            if (v.length() > 9) return Optional.of(Duration.ofSeconds(999_999_999L));
            return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
        }
        try {
            Instant at =
                    ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration d = Duration.between(now, at);
            return Optional.of(d.isNegative() ? Duration.ZERO : d);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
