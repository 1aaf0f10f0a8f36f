DROP INDEX `translation_history_key_idx`;--> statement-breakpoint
CREATE INDEX `translation_history_cell_idx` ON `translation_history` (`key_id`,`language_id`,`id`);