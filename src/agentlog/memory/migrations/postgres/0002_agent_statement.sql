-- A third provenance label, agent_statement: what an agent said that no tool or decision
-- backs (issue 13), stored as user_claim until now.
ALTER TABLE memory_entries DROP CONSTRAINT memory_entries_provenance_check;

ALTER TABLE memory_entries ADD CONSTRAINT memory_entries_provenance_check CHECK (provenance IN ('verified', 'agent_statement', 'user_claim'));
