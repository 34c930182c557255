-- Session leases (agentlog.sessions.leases): one turn at a time per session across every
-- process sharing the file. lease_token is the fencing token, raised on every acquire;
-- lease_owner is NULL once the turn released it (the stored end of that turn);
-- lease_invocation names the turn that holds or held it.
ALTER TABLE sessions ADD COLUMN lease_token INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN lease_owner TEXT;
ALTER TABLE sessions ADD COLUMN lease_invocation TEXT;
ALTER TABLE sessions ADD COLUMN lease_expires REAL NOT NULL DEFAULT 0;
