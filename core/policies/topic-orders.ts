/**
 * The orderings of Cho et al.'s topic crawler (their section 7, Graph 6): the topic policy orders
 * both its queues by one of them. Browser-safe (the simulation schema, which the workbench's
 * form imports, checks the choice with it).
 */
export const TOPIC_ORDERS = ['breadth-first', 'backlink-count', 'batch-pagerank'] as const;
export type TopicOrder = (typeof TOPIC_ORDERS)[number];
