"""pith inside other tools' pipelines. Each integration is its own module and imports its tool only
when imported itself: ``pith.integrations.datatrove`` (needs ``pip install datatrove``),
``pith.integrations.scrapy`` (needs ``pip install './python[scrapy]'``)."""
