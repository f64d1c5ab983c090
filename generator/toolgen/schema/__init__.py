"""JSON-Schema mechanics shared by every stage: the keyword table, pointers, walking and
transforming schemas, closing argument objects. Imports nothing else from toolgen."""
