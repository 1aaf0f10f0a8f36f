DROP TABLE `meta`;--> statement-breakpoint
ALTER TABLE `releases` ADD `publishing_since` integer;