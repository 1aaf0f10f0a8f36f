ALTER TABLE `projects` ADD `arb_attributes` text;--> statement-breakpoint
ALTER TABLE `translation_keys` ADD `arb_metadata` text;