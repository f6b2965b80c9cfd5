/**
 * The model binding the person chose (provider, model, base URL, the write-only API key), its store,
 * {@code GET|PUT /api/model} and its connection test, the price table, and the provider clients (docs/model.md).
 * The only package that uses LangChain4j. A service: it may import another service without a cycle, the platform,
 * {@code home} and the pure core; never {@code run}, a front end or {@code boot} (docs/architecture.md#the-layers,
 * ArchitectureTest).
 */
package dev.deckhand.model;
